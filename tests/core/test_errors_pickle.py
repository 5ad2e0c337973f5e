"""Every error class pickles with its message and fields, so an error raised in a worker
process reaches the caller as that same error."""

from __future__ import annotations

import inspect
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import chinchon
from chinchon import errors, reference

from tests.oracles.impls import NATIVE

#: each error class with the arguments it is made with and the fields it keeps
EXAMPLES = {
    "ChinchonError": (("bad input",), {}),
    "CardParseError": (("unknown card '9x'", "9x"), {"token": "9x"}),
    "InvalidHandError": (("a card in play three times",), {}),
    "DuplicateCardError": (("card 7o is held twice",), {}),
    "CardCountError": (("must hold 7 cards, got 6",), {}),
    "BatchRowError": (("row 3: bits set outside the card lanes", 3), {"row": 3}),
    "CannotCloseError": (("the closer cannot close",), {}),
    "IllegalAction": (("cannot draw in the 'discard' phase",), {}),
    "ActionNotAllowed": (("action 131 is not allowed now", 131), {"action": 131}),
    "SimulationError": (("game 7 of seed 3 failed: RuntimeError: boom", 7, 3,
                         "RuntimeError: boom"), {"index": 7, "seed": 3,
                                                 "cause": "RuntimeError: boom"}),
    "RecordsError": (("records: no folder 'games.parquet'",), {}),
    "SchedulerError": (("scheduler 'tcp://127.0.0.1:9': cannot connect",), {}),
}


def _error_classes():
    return [obj for _, obj in inspect.getmembers(errors, inspect.isclass)
            if issubclass(obj, errors.ChinchonError)]


def test_every_error_class_has_an_example():
    assert {cls.__name__ for cls in _error_classes()} == set(EXAMPLES)
    assert set(errors.__all__) >= set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
@pytest.mark.parametrize("protocol", [0, 2, pickle.HIGHEST_PROTOCOL])
def test_each_error_class_round_trips_through_pickle(name, protocol):
    cls = getattr(errors, name)
    args, fields = EXAMPLES[name]
    exc = cls(*args)
    if hasattr(exc, "add_note"):  # Python 3.11+
        exc.add_note("raised in a worker")
    back = pickle.loads(pickle.dumps(exc, protocol=protocol))
    assert type(back) is cls
    assert str(back) == str(exc) == args[0]
    assert back.args == exc.args
    for field, value in fields.items():
        assert getattr(back, field) == value
    assert getattr(back, "__notes__", None) == getattr(exc, "__notes__", None)
    assert isinstance(back, errors.ChinchonError) and isinstance(back, ValueError)


class SeatError(errors.IllegalAction):
    """An error class added later, with fields and a keyword-only argument."""

    def __init__(self, message: str, seat: int, *, why: str) -> None:
        super().__init__(message)
        self.seat, self.why = seat, why


def test_a_subclass_with_its_own_fields_round_trips_too():
    back = pickle.loads(pickle.dumps(SeatError("seat 2 is away", 2, why="gone")))
    assert (type(back), str(back), back.seat, back.why) == (SeatError, "seat 2 is away",
                                                            2, "gone")


def test_errors_raised_by_the_package_round_trip():
    raised = []
    for call in (lambda: chinchon.deadwood("7o 9x"), lambda: chinchon.settle("1o", ["2o"]),
                 lambda: chinchon.deadwood_batch(np.array([1 << 12], dtype=np.uint64)),
                 lambda: chinchon.Game(3, seed=1).discard("1o")):
        with pytest.raises(errors.ChinchonError) as info:
            call()
        raised.append(info.value)
    for exc in raised:
        back = pickle.loads(pickle.dumps(exc))
        assert (type(back), str(back), back.__dict__) == (type(exc), str(exc), exc.__dict__)


def _bad_batch(impl_name: str) -> None:
    impl = reference if impl_name == "python" else NATIVE
    rows = np.array([0b1111111] * 5, dtype=np.uint64)
    rows[3] = 1 << 12  # bits outside the lanes
    impl.deadwood_batch(rows)


IMPL_NAMES = ["python"] + (["native"] if NATIVE is not None else [])

#: the workers below are started fresh ("spawn"), not forked: a fork copies a lock that
#: another thread of the test run holds at that moment (the allocator's under
#: AddressSanitizer, say) and the child waits on it for ever -- a CI run under the
#: sanitizers once hung here, its worker parked in a futex while pickling the error
_SPAWN = multiprocessing.get_context("spawn")


@pytest.mark.parametrize("impl_name", IMPL_NAMES)
def test_a_bad_row_in_a_worker_process_reaches_the_caller_as_that_error(impl_name):
    with ProcessPoolExecutor(max_workers=1, mp_context=_SPAWN) as pool:
        future = pool.submit(_bad_batch, impl_name)
        with pytest.raises(errors.BatchRowError) as info:
            future.result(timeout=60)
        # the pool survived: it runs the next task
        assert pool.submit(int, "5").result(timeout=60) == 5
    assert info.value.row == 3 and str(info.value).startswith("row 3:")


def test_a_bad_row_in_a_multiprocessing_pool_does_not_hang_it():
    with _SPAWN.Pool(1) as pool:
        result = pool.apply_async(_bad_batch, ("python",))
        with pytest.raises(errors.BatchRowError) as info:
            result.get(timeout=60)
    assert info.value.row == 3
