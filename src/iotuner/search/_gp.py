"""Bayesian optimisation with a Gaussian process over a finite set of configurations.

After `n_startup` configurations drawn at random from the pool, each proposal fits a
Gaussian process (scikit-learn's GaussianProcessRegressor: a constant times a Matérn 5/2
kernel with one length scale per feature, plus white noise for the measurement noise) to
what was measured, and picks the untried configuration of the pool with the highest
expected improvement. Features: a numeric parameter (integers only) with more than two
values is one feature, the rank of its value scaled to [0, 1]; any other parameter is
one-hot encoded. The target is the logarithm of the value when every value is positive
(bandwidths span orders of magnitude), negated when minimising.

RATIONALE: Optuna's GPSampler needs PyTorch, a dependency of several gigabytes, for what
is here a few hundred points; and a configuration space is finite, so the expected
improvement can be evaluated on every untried configuration exactly instead of being
optimised over a continuous relaxation. Offline, the pool is the configurations the
table measured, so the sampler never proposes one the table cannot answer.
"""

import random
import warnings
from collections.abc import Sequence

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
from iotuner.space import Configuration, Space, config_key

__all__ = ["GaussianProcessSampler"]

REFIT = 5
"""The kernel's hyperparameters are optimised again after this many new measurements."""


class GaussianProcessSampler(PoolSampler):
    """Expected improvement of a Gaussian process, over the untried configurations."""

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
        self._encoders: list[tuple[str, dict[str, float] | None, list[str]]] = []
        for p in space.parameters:
            texts = [str(v) for v in p.values]
            if p.numeric and len(texts) > 2:
                scale = max(len(texts) - 1, 1)
                self._encoders.append((p.name, {t: i / scale for i, t in enumerate(texts)}, []))
            else:
                self._encoders.append((p.name, None, texts))

    def encode(self, configs: Sequence[Configuration]) -> npt.NDArray[np.float64]:
        """The feature rows of configurations (see the module doc)."""
        rows = []
        for config in configs:
            row: list[float] = []
            for name, ranks, levels in self._encoders:
                text = str(config[name])
                if ranks is not None:
                    row.append(ranks[text])
                else:
                    row.extend(1.0 if text == level else 0.0 for level in levels)
            rows.append(row)
        return np.asarray(rows, dtype=float)

    def choose(self, study: Study, untried: list[Configuration]) -> Configuration | None:
        if not untried:
            return None
        measured: dict[str, tuple[Configuration, list[float]]] = {}
        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
            if t.value is not None and len(t.params) == len(self._encoders):
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
