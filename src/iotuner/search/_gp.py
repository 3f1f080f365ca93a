"""Bayesian optimisation with a Gaussian process over a finite set of configurations.

After `n_startup` configurations drawn at random from the pool, each proposal fits a
Gaussian process (scikit-learn's GaussianProcessRegressor: a constant times a Matérn 5/2
kernel with one length scale per feature, plus white noise for the measurement noise) to
what was measured, and picks the untried configuration of the pool with the highest
expected improvement. Features (ConfigEncoder, which the model strategy shares): a
numeric parameter (integers only) with more than two values is one feature, the rank of
its value scaled to [0, 1]; a range its value's place between its limits; any other
parameter is one-hot encoded. The target is the logarithm of the value when every value is positive
(bandwidths span orders of magnitude), negated when minimising.
"""

import math
import random
import warnings
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
from optuna.study import Study, StudyDirection
from optuna.trial import TrialState
from scipy.stats import norm
from sklearn.exceptions import ConvergenceWarning
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel, Kernel, Matern, WhiteKernel
from threadpoolctl import threadpool_limits

from iotuner.search._samplers import PoolSampler
from iotuner.space import Configuration, Parameter, Space, Value, config_key

__all__ = ["ConfigEncoder", "GaussianProcessSampler"]

REFIT = 5
"""The kernel's hyperparameters are optimised again after this many new measurements."""


class GaussianProcessSampler(PoolSampler):
    """Expected improvement of a Gaussian process, over the untried configurations.

    RATIONALE: Optuna's GPSampler needs PyTorch, a dependency of several gigabytes, for what
    is here a few hundred points; and a configuration space is finite, so the expected
    improvement can be evaluated on every untried configuration exactly instead of being
    optimised over a continuous relaxation. Offline, the pool is the configurations the
    table measured, so the sampler never proposes one the table cannot answer.
    """

    def __init__(
        self,
        space: Space,
        pool: Sequence[Configuration],
        *,
        n_startup: int = 10,
        seed: int | None = None,
        xi: float = 0.01,
    ) -> None:
        if n_startup < 1:
            raise ValueError(f"n_startup must be an int >= 1, got {n_startup}")
        super().__init__(space, pool, seed)
        self.n_startup = n_startup
        self.seed = seed
        self.xi = xi
        self._rng = random.Random(seed)
        self._kernel: Kernel | None = None
        self._optimised_at = -REFIT
        self._encoder = ConfigEncoder(space)
        self._names = len(space.parameters)

    def encode(self, configs: Sequence[Configuration]) -> npt.NDArray[np.float64]:
        """The feature rows of configurations (ConfigEncoder)."""
        return self._encoder.encode(configs)

    def choose(self, study: Study, untried: list[Configuration]) -> Configuration | None:
        if not untried:
            return None
        measured: dict[str, tuple[Configuration, list[float]]] = {}
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
            if t.value is not None and len(t.params) == self._names:
                measured.setdefault(config_key(t.params), (dict(t.params), []))[1].append(t.value)
        if len(measured) < self.n_startup:
            return self._rng.choice(untried)
        configs = [c for c, _ in measured.values()]
        y = np.asarray([float(np.mean(v)) for _, v in measured.values()])
        if np.all(y > 0):
            y = np.log(y)
        if study.direction == StudyDirection.MINIMIZE:
            y = -y
        X = self.encode(configs)
        if self._kernel is None:
            self._kernel = ConstantKernel(1.0) * Matern(
                length_scale=np.ones(X.shape[1]), length_scale_bounds=(1e-2, 1e2), nu=2.5
            ) + WhiteKernel(1e-2, noise_level_bounds=(1e-6, 1.0))
        # RATIONALE: one point more changes the kernel's hyperparameters little, so they are
        # optimised every REFIT points, from the last ones; in between the process is only
        # conditioned on the new data (optimising each time costs ten times as much).
        optimise = len(configs) >= self._optimised_at + REFIT
        gp = GaussianProcessRegressor(
            kernel=self._kernel,
            normalize_y=True,
            random_state=self.seed,
            n_restarts_optimizer=0,
            optimizer="fmin_l_bfgs_b" if optimise else None,
        )
        # RATIONALE: one BLAS thread: on matrices of a few hundred rows a multi-threaded
        # BLAS spends more time synchronising than computing (4x slower on two cores).
        with warnings.catch_warnings(), threadpool_limits(1):
            warnings.simplefilter("ignore", ConvergenceWarning)
            gp.fit(X, y)
            mean, std = gp.predict(self.encode(untried), return_std=True)
        self._kernel = gp.kernel_
        if optimise:
            self._optimised_at = len(configs)
        best = float(np.max(y))
        std = np.maximum(std, 1e-9)
        z = (mean - best - self.xi) / std
        improvement = (mean - best - self.xi) * norm.cdf(z) + std * norm.pdf(z)
        return untried[int(np.argmax(improvement))]


class ConfigEncoder:
    """Configurations of a space as rows of numbers, for a Gaussian process (module doc).

    A listed numeric parameter (integers only) with more than two values is one feature,
    the rank of its value scaled to [0, 1]; a range is one feature, its value's place
    between the range's limits (on a log scale for a log range), with one more 0/1 feature
    for each word it lists beside the range ("default"); any other parameter is one-hot.
    """

    def __init__(self, space: Space) -> None:
        self._encoders: list[Callable[[Value], list[float]]] = [
            _encoder(p) for p in space.parameters
        ]
        self._names = [p.name for p in space.parameters]

    def encode(self, configs: Sequence[Configuration]) -> npt.NDArray[np.float64]:
        """One row per configuration."""
        rows = [
            [
                x
                for name, encode in zip(self._names, self._encoders, strict=True)
                for x in encode(c[name])
            ]
            for c in configs
        ]
        return np.asarray(rows, dtype=float).reshape(len(rows), -1)


def _encoder(p: Parameter) -> Callable[[Value], list[float]]:
    texts = [str(v) for v in p.values]
    if p.range is not None:
        span = p.range
        words = [t for v, t in zip(p.values, texts, strict=True) if not isinstance(v, int)]
        scale = math.log if span.log else float
        low, high = scale(span.low), scale(span.high)
        width = (high - low) or 1.0

        def place(value: Value) -> list[float]:
            number = [(scale(value) - low) / width] if isinstance(value, int) else [0.0]
            return number + [1.0 if str(value) == w else 0.0 for w in words]

        return place
    if p.numeric and len(texts) > 2:
        ranks = {t: i / (len(texts) - 1) for i, t in enumerate(texts)}
        return lambda value: [ranks[str(value)]]
    return lambda value: [1.0 if str(value) == t else 0.0 for t in texts]
