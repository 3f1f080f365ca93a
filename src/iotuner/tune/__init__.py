"""`iotuner tune`: from a performance model and the measurements to the tuning table the
interposer reads.

For every case the table can tell apart at run time (scale, size group, pattern, read or
write, contiguous or strided), the model predicts every configuration of the space. An entry
changes what MPI does only with evidence that the chosen configuration beats the default:

* measured: where the training data measured the case, the measurements decide. A
  configuration beats the default when its worst repeat beats the default's best in every
  shape measured, and among those the one with the highest measured gain is chosen; where
  the repeats overlap there is no evidence, whatever the model says. A size group the
  sweep did not measure, between two that it did, gets their choice when both measured
  the same configuration beating the default and the model does not predict it slower
  there.
* calibrated: elsewhere, with a model calibrated on held-out workloads
  (iotuner.models._calibrate), the held-out configurations predicted to gain about as
  much over another configuration of their workload must have gained in the median, and
  nine in ten of them lost no more than the noise of the training data's own repeats
  (the median relative spread between their quartiles).
* uncalibrated (models from before calibration): the chosen configuration's lower bound
  must beat the default's upper bound, both bands at least as wide as that noise.

Among configurations with evidence the one with the highest prediction is chosen, so a
gain the data cannot tell from noise keeps the default.

Every entry written is reachable by a decision point of the interposer (formats/README.md):

* open (one entry per scale): the hints MPI reads only at open (cb_nodes, cb_config_list,
  striping) cannot change per access, so one assignment of them serves every case of the
  scale. It is the assignment with the highest summed predicted gain over the cases whose
  choices, made within it, are predicted slower than the default in no case beyond the
  noise; the access and view choices are then made within that assignment, so what runs is
  a configuration the model predicted.
* access (collective cases): the remaining keys per size group, op and layout; an entry
  with no hints keeps the default explicitly.
* view (independent access to a strided view): independent calls make no decision, so one
  configuration serves all independent strided cases of a scale, set when the program sets
  such a view. Independent access to a contiguous view gets nothing beyond the open entry:
  ROMIO's other keys (data sieving, independent buffers) only act on non-contiguous access.

Only size groups inside the range the model was trained on get entries from their own
predictions. Beyond it, up to EXTRAPOLATE_FACTOR times larger or smaller, a collective case
gets the nearest trained group's choice only when that choice was measured there beating
the default and the model predicts a gain and nothing slower beyond the noise here, or,
when it was chosen by the model, it still passes the evidence rule here with a noise band
widened for every doubling;
elsewhere no entry is written and the interposer's trace names the size group it had
nothing for (a `no_entry` record). A strided case is predicted for every strided shape
(block size, fill level) seen in training and the predictions are averaged in log space,
since the table cannot tell those shapes apart.

Spaces of any size. A space of up to ENUMERATION_LIMIT configurations is predicted whole
for every case. A larger one (numeric knobs as ranges: space.py) is optimised over the
model instead, scale by scale: for each case a seeded random pool of OPTIMISE_POOL
configurations (Space.sample), then a local search that moves one parameter at a time
(Space.neighbours) from the OPTIMISE_KEEP best by lower bound, for at most OPTIMISE_ROUNDS
rounds of at most OPTIMISE_ROUND_SIZE new configurations; then every case of the scale is
predicted at the union of the cases' best configurations, each also with its non-open keys
at their defaults, so that the rules above (one open assignment per scale, the access and
view choices made within it, evidence against the default) run unchanged on that candidate
set. Model evaluations are bounded by these numbers per case, and memory by predicting at
most PREDICT_BATCH rows at a time. A random pool with a local search, rather than an Optuna
study per case, because it asks the model for hundreds of configurations in one batch
(one call to predict) where a sampler proposes one at a time, and a table has hundreds of
cases. Progress (cases done) goes to stderr when asked for.

The modules, one idea each: _cases (what is predicted and measured per case), _evidence
(when a configuration beats the default), _scale (the entries of one scale: open keys,
access, beyond the range, view), _build (tune itself), _result (choices and the notes'
contract), _render (the printed choices).
"""

from iotuner.tune._build import EXTRAPOLATE_FACTOR, predicted_size_groups, tune, tune_method
from iotuner.tune._cases import (
    ENUMERATION_LIMIT,
    OPEN_ONLY_KEYS,
    OPTIMISE_KEEP,
    OPTIMISE_POOL,
    OPTIMISE_ROUND_SIZE,
    OPTIMISE_ROUNDS,
    Predictor,
    comparing_workload,
    measurement_noise,
    memory_pieces,
    open_keys,
    prediction_rows,
)
from iotuner.tune._evidence import MEASURED_EVIDENCE, SIMILAR_ONLY
from iotuner.tune._render import render_choices
from iotuner.tune._result import (
    Choice,
    NoteFigures,
    TuneResult,
    choice_note,
    note_figures,
    note_gain,
)
from iotuner.tune._scale import same_as_default

__all__ = [
    "ENUMERATION_LIMIT",
    "EXTRAPOLATE_FACTOR",
    "MEASURED_EVIDENCE",
    "OPEN_ONLY_KEYS",
    "OPTIMISE_KEEP",
    "OPTIMISE_POOL",
    "OPTIMISE_ROUNDS",
    "OPTIMISE_ROUND_SIZE",
    "SIMILAR_ONLY",
    "Choice",
    "NoteFigures",
    "Predictor",
    "TuneResult",
    "choice_note",
    "comparing_workload",
    "measurement_noise",
    "memory_pieces",
    "note_figures",
    "note_gain",
    "open_keys",
    "predicted_size_groups",
    "prediction_rows",
    "render_choices",
    "same_as_default",
    "tune",
    "tune_method",
]
