"""What a trained model believes about one new workload, updated after each measured trial.

Before any run the belief is the prior model's prediction: for every candidate
configuration of the workload, the log-bandwidth it predicts and its spread (the model's
interval, `std_from_interval`). Each measured trial gives a residual, measured minus
predicted, and a Gaussian process on those residuals (scikit-learn's
GaussianProcessRegressor) carries it to every other candidate:

    residual(x) / prior_std(x) ~ GP(0, OFFSET_SHARE + (1 - OFFSET_SHARE) * RBF(x, x'; l) + noise)

over the candidates' features standardised column by column. The constant part is an
offset the whole workload shares (the model is off by a factor on this machine or this
program); the RBF part is local (the model is wrong about this region of the space), so
one measurement moves similar configurations more than distant ones. With one
observation the posterior mean is the prior plus a shared offset plus a local correction
around the measured configuration. The posterior is

    mean(x) = prior_mean(x) + prior_std(x) * gp_mean(x)
    std(x)  = prior_std(x) * gp_std(x)

so a configuration far from everything measured keeps the prior's spread and one next to
a measurement is as certain as the measurement. Dividing the residuals by the prior's
spread is what lets a configuration the model is unsure about move more.

The hyperparameters are not fitted from two or three points, where a marginal likelihood
says little: the length scale is half the median distance between candidates
(LENGTH_SCALE_SHARE of the "median heuristic"), and the measurement noise is NOISE_STD on
the log scale (a run's bandwidth varies by a few per cent). From REFIT_FROM observations
on, the length scale and the noise are fitted by maximum likelihood within bounds around
those values.

`next_index` proposes the next trial. With no observation it is the prior's best (the
zero-trial pick). Afterwards it is the unmeasured candidate with the highest expected
improvement (EI) over the best posterior mean among the measured candidates (default), or
the highest upper confidence bound (UCB, mean + UCB_BETA * std) when asked.

RATIONALE: EI over UCB. On eight synthetic workloads whose prior overrates a region away
from the best (ranking it 6th to 18th; tests/models/test_online.py) both reach 95 % of the
best in 2 trials, but EI reaches the best itself in 3.0 trials on average and UCB in 3.9:
UCB keeps spending trials on candidates that are only uncertain, while EI weighs the
uncertainty by how much better than the best measured a candidate can be, which is what a
budget of a few trials needs. On random additive errors over one-hot knobs the two tie
(4.9 trials to 95 %). EI is measured against the posterior mean at the measured points,
not the raw measurement (the "noisy EI" that one lucky run cannot inflate).

RATIONALE: at most MAX_PREDICTED candidates are given to the GP at once (the prior's best
ones and those near the measured ones): the cost of predicting grows with the candidates
times the observations squared, and a candidate outside the prior's top MAX_PREDICTED
and far from every measurement keeps its prior anyway.
"""

import math
import warnings
from collections.abc import Collection
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy.stats import norm
from sklearn.exceptions import ConvergenceWarning
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel
from threadpoolctl import threadpool_limits

from iotuner.models._common import ModelError

__all__ = [
    "LENGTH_SCALE_SHARE",
    "MAX_PREDICTED",
    "NOISE_STD",
    "OFFSET_SHARE",
    "REFIT_FROM",
    "UCB_BETA",
    "WorkloadBelief",
    "std_from_interval",
]

OFFSET_SHARE = 0.5
"""The share of the prior's variance that is one offset of the whole workload (the rest is
local, with the RBF's length scale)."""

NOISE_STD = 0.05
"""The measurement noise on the log scale (about 5 % between repeated runs)."""

LENGTH_SCALE_SHARE = 0.5
"""The RBF's length scale as a share of the median distance between two candidates.

RATIONALE: on synthetic workloads (a 10 x 10 grid whose prior overrates a region away
from the best, ranking the best 9th to 18th) the full median distance let one poor
measurement push the search to the far edge of the space, 6-9 trials to 95 % of the best
where half of it takes 2; on additive errors over one-hot knobs it costs 0.3 trials on
average (4.9 against 4.6 to 95 %), a shorter one (0.35) costs more there (5.5)."""

REFIT_FROM = 10
"""Observations from which the length scale and the noise are fitted to them."""

UCB_BETA = 2.0
"""How many standard deviations above the mean the upper confidence bound is."""

MAX_PREDICTED = 20_000
"""Most candidates the GP predicts at once (see the module doc)."""

_MIN_STD = 1e-6
Acquisition = Literal["ei", "ucb"]


def std_from_interval(
    low: npt.ArrayLike, high: npt.ArrayLike, coverage: float = 0.8
) -> npt.NDArray[np.float64]:
    """The log-scale standard deviation of a prediction whose central `coverage` interval
    (in MiB/s) is [low, high], as if it were log-normal (a 10 %-90 % interval: 0.8)."""
    if not 0 < coverage < 1:
        raise ModelError(f"the interval's coverage must be in (0, 1), got {coverage}")
    low_a = np.asarray(low, dtype=float)
    high_a = np.asarray(high, dtype=float)
    if low_a.shape != high_a.shape:
        raise ModelError(f"low and high differ in shape: {low_a.shape} and {high_a.shape}")
    if not (np.all(low_a > 0) and np.all(np.isfinite(high_a))):
        raise ModelError("an interval's bounds must be finite and positive (MiB/s)")
    width = np.log(np.maximum(high_a, low_a)) - np.log(low_a)
    spread: npt.NDArray[np.float64] = width / (2 * norm.ppf(0.5 + coverage / 2))
    return spread


class WorkloadBelief:
    """The log-bandwidth of each candidate configuration of one workload: a prior, updated
    by each measured trial (see the module doc).

    `features`: (candidates, features) encoded configurations; `prior_mean`, `prior_std`:
    the prior model's log-bandwidth for each and its spread (std_from_interval).
    """

    def __init__(
        self,
        features: npt.ArrayLike,
        prior_mean: npt.ArrayLike,
        prior_std: npt.ArrayLike,
        *,
        acquisition: Acquisition = "ei",
        noise_std: float = NOISE_STD,
    ) -> None:
        X = np.asarray(features, dtype=float)
        mean = np.asarray(prior_mean, dtype=float)
        std = np.asarray(prior_std, dtype=float)
        if X.ndim == 1:
            X = X[:, None]
        if X.ndim != 2 or X.shape[0] == 0:
            raise ModelError(
                f"features must be a (candidates, features) array with a row per candidate, "
                f"got shape {X.shape}"
            )
        n = X.shape[0]
        for name, values in (("prior_mean", mean), ("prior_std", std)):
            if values.shape != (n,):
                raise ModelError(
                    f"{name} must hold one number per candidate ({n}), got shape {values.shape}"
                )
        if not np.all(np.isfinite(X)):
            raise ModelError("features must be finite numbers (encode unknown values first)")
        if not np.all(np.isfinite(mean)):
            raise ModelError("prior_mean must be finite log-bandwidths")
        if not np.all(np.isfinite(std)) or np.any(std < 0):
            raise ModelError("prior_std must be finite and >= 0")
        if acquisition not in ("ei", "ucb"):
            raise ModelError(f"the acquisition must be 'ei' or 'ucb', got {acquisition!r}")
        if not noise_std > 0:
            raise ModelError(f"noise_std must be > 0, got {noise_std}")
        self.acquisition: Acquisition = acquisition
        self.noise_std = float(noise_std)
        self.prior_mean = mean
        # A prior that claims certainty would ignore every measurement: floor its spread
        # at the measurement noise.
        self.prior_std = np.maximum(std, self.noise_std)
        scale = X.std(axis=0)
        keep = scale > 0
        self._X = (X[:, keep] - X[:, keep].mean(axis=0)) / scale[keep]
        self.length_scale = LENGTH_SCALE_SHARE * _median_distance(self._X)
        self._indices: list[int] = []
        self._values: list[float] = []
        self._cache: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def size(self) -> int:
        """How many candidates there are."""
        return int(self.prior_mean.shape[0])

    @property
    def observed(self) -> list[int]:
        """The candidates measured so far, in order (a repeat appears again)."""
        return list(self._indices)

    def observe(self, index: int, log_value: float) -> None:
        """A measured trial: candidate `index` ran at exp(`log_value`) MiB/s (or whatever
        the objective measures, on a log scale where higher is better)."""
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise ModelError(f"a candidate index must be an int, got {index!r}")
        if not 0 <= index < self.size:
            raise ModelError(f"candidate index {index} is outside 0..{self.size - 1}")
        value = float(log_value)
        if not math.isfinite(value):
            raise ModelError(
                f"a measured log value must be finite, got {log_value!r} for candidate {index}"
            )
        self._indices.append(int(index))
        self._values.append(value)
        self._cache = None

    def mean_std(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The posterior log-bandwidth of every candidate: mean and standard deviation."""
        if self._cache is None:
            self._cache = self._posterior()
        mean, std = self._cache
        return mean.copy(), std.copy()

    def next_index(self, exclude: Collection[int] = ()) -> int:
        """The candidate to measure next: the prior's best before any observation, then the
        best acquisition among the unmeasured ones not in `exclude` (module doc)."""
        mean, std = self.mean_std()
        allowed = np.ones(self.size, dtype=bool)
        allowed[self._indices] = False
        skip = [int(i) for i in exclude if 0 <= int(i) < self.size]
        allowed[skip] = False
        if not allowed.any():
            raise ModelError(
                f"every one of the {self.size} candidates is measured or excluded: "
                "there is nothing left to propose"
            )
        score = self.acquire(mean, std)
        score[~allowed] = -np.inf
        return int(np.argmax(score))

    def acquire(
        self, mean: npt.NDArray[np.float64], std: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        """The acquisition of each candidate from its posterior (higher: measure sooner)."""
        if not self._indices:
            return mean.copy()
        if self.acquisition == "ucb":
            ucb: npt.NDArray[np.float64] = mean + UCB_BETA * std
            return ucb
        best = float(np.max(mean[self._indices]))
        sigma = np.maximum(std, _MIN_STD)
        z = (mean - best) / sigma
        improvement: npt.NDArray[np.float64] = (mean - best) * norm.cdf(z) + sigma * norm.pdf(z)
        return improvement

    def _posterior(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        mean = self.prior_mean.copy()
        std = self.prior_std.copy()
        if not self._indices:
            return mean, std
        observed = np.asarray(self._indices)
        z = (np.asarray(self._values) - self.prior_mean[observed]) / self.prior_std[observed]
        # The noise in units of the prior's spread at the measured candidates.
        noise = float(np.mean((self.noise_std / self.prior_std[observed]) ** 2))
        fit = len(set(self._indices)) >= REFIT_FROM
        kernel = (
            ConstantKernel(OFFSET_SHARE, constant_value_bounds="fixed")
            + ConstantKernel(1 - OFFSET_SHARE, constant_value_bounds="fixed")
            * RBF(
                self.length_scale,
                length_scale_bounds=(self.length_scale / 10, self.length_scale * 10)
                if fit
                else "fixed",
            )
            + WhiteKernel(noise, noise_level_bounds=(noise / 10, noise * 10) if fit else "fixed")
        )
        gp = GaussianProcessRegressor(
            kernel=kernel, optimizer="fmin_l_bfgs_b" if fit else None, normalize_y=False
        )
        rows = self._predicted_rows(observed)
        # RATIONALE: one BLAS thread: for a few dozen observations a multi-threaded BLAS
        # spends more time synchronising than computing.
        with warnings.catch_warnings(), threadpool_limits(1):
            warnings.simplefilter("ignore", ConvergenceWarning)
            gp.fit(self._X[observed], z)
            gp_mean, gp_std = gp.predict(self._X[rows], return_std=True)
        # predict's std includes the measurement noise; the belief is about the
        # configuration's bandwidth, not about one more noisy run of it.
        fitted_noise = float(gp.kernel_.k2.noise_level)
        latent = np.sqrt(np.maximum(gp_std**2 - fitted_noise, 0.0))
        mean[rows] += self.prior_std[rows] * gp_mean
        std[rows] = np.maximum(self.prior_std[rows] * latent, _MIN_STD)
        return mean, std

    def _predicted_rows(self, observed: npt.NDArray[np.int_]) -> npt.NDArray[np.int_]:
        """The candidates the GP predicts: all, or when there are more than MAX_PREDICTED,
        the prior's best and the nearest to each measured one."""
        if self.size <= MAX_PREDICTED:
            return np.arange(self.size)
        share = MAX_PREDICTED // (2 * len(observed) + 2)
        chosen = [np.argsort(-self.prior_mean, kind="stable")[: MAX_PREDICTED // 2], observed]
        for i in np.unique(observed):
            distance = np.sum((self._X - self._X[i]) ** 2, axis=1)
            chosen.append(np.argsort(distance, kind="stable")[:share])
        rows: npt.NDArray[np.int_] = np.unique(np.concatenate(chosen))
        return rows


def _median_distance(X: npt.NDArray[np.float64], sample: int = 500) -> float:
    """The median distance between two candidates (of at most `sample` of them, chosen
    evenly so the result does not depend on a seed); 1 when they are all alike."""
    if X.shape[1] == 0 or X.shape[0] < 2:
        return 1.0
    take = np.linspace(0, X.shape[0] - 1, min(sample, X.shape[0])).astype(int)
    points = X[take]
    squared = np.sum((points[:, None, :] - points[None, :, :]) ** 2, axis=2)
    upper = squared[np.triu_indices(points.shape[0], k=1)]
    positive = upper[upper > 0]
    return float(np.sqrt(np.median(positive))) if positive.size else 1.0
