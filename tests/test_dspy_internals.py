"""The DSPy internals the project relies on (``lm.dspy_internals``) still have the shape it
uses: a DSPy upgrade that moves, renames or reshapes one fails here, by name, rather than
mid-run in a retry loop or a ReAct step."""

from __future__ import annotations

import inspect

import dspy
import pytest

from lm import dspy_internals as internals


def parameters(fn) -> list[str]:
    return list(inspect.signature(fn).parameters)


def test_dspy_is_the_minor_version_the_adapter_was_written_for():
    major, minor = (int(x) for x in dspy.__version__.split(".")[:2])
    assert (major, minor) == (3, 4), (
        f"DSPy {dspy.__version__}: re-check every name in lm/dspy_internals.py, then update this"
    )


def test_the_lm_execution_steps_take_what_resilient_lm_passes():
    assert parameters(internals.prepare_call)[:4] == ["lm", "prompt", "messages", "kwargs"]
    assert "asynchronous" in parameters(internals.prepare_call)
    assert parameters(internals.execute_call) == ["lm", "call"]
    assert parameters(internals.aexecute_call) == ["lm", "call"]
    assert inspect.iscoroutinefunction(internals.aexecute_call)
    assert parameters(internals.finalize_call) == ["lm", "call", "result"]
    from dspy.clients import execution

    assert parameters(execution._store) == ["lm", "call", "result", "asynchronous"]
    assert isinstance(internals.LM_CLASS_STATE_KEY, str)
    assert internals.LM_CLASS_STATE_KEY in dspy.LM("openai/gpt-4.1-mini").dump_state()


def test_react_still_has_the_truncating_step_and_the_attributes_researcher_uses():
    step = dspy.ReAct._call_with_potential_trajectory_truncation
    assert parameters(step) == ["self", "module", "trajectory", "input_args"]

    def lookup(query: str) -> str:
        """Look something up."""
        return query

    react = dspy.ReAct("question -> answer", tools=[lookup], max_iters=2)
    assert isinstance(react.react, dspy.Predict) and isinstance(react.extract, dspy.Module)
    assert set(react.tools) == {"lookup", "finish"} and react.max_iters == 2
    tool = react.tools["lookup"]
    assert all(hasattr(tool, a) for a in ("name", "desc", "args", "arg_types", "arg_desc"))


def test_the_compiled_flag_still_hides_a_module_from_optimisers():
    class Pair(dspy.Module):
        def __init__(self) -> None:
            super().__init__()
            self.first = dspy.Predict("a -> b")
            self.second = dspy.Predict("b -> c")

    assert len(Pair().named_predictors()) == 2
    frozen = dspy.Module()
    frozen.kept = dspy.Predict("a -> b")
    frozen.hidden = Pair()
    internals.set_frozen(frozen.hidden, True)
    assert [name for name, _ in frozen.named_predictors()] == ["kept"]
    internals.set_frozen(frozen.hidden, False)
    assert len(frozen.named_predictors()) == 3


def test_streaming_reads_the_setting_dspy_streams_with():
    assert internals.streaming() is False
    assert hasattr(dspy.settings, "send_stream")


def test_the_engine_types_and_helpers_exist_with_the_fields_the_engine_fills():
    fields = {
        internals.Response: ("id", "model", "message", "finish_reason", "usage"),
        internals.Usage: ("input_tokens", "output_tokens"),
        internals.Message: ("role", "parts"),
        internals.TextPart: ("text",),
    }
    for cls, names in fields.items():
        signature = inspect.signature(cls)
        missing = [n for n in names if n not in signature.parameters]
        assert not missing, f"{cls.__name__} lost {missing}"
    assert callable(internals.validate_request) and callable(internals.response_to_events)
    assert internals.legacy_output_value({"a": 1}, "a") == 1
    assert internals.legacy_output_value({}, "a", "default") == "default"


@pytest.mark.parametrize("name", [n for n in internals.__all__ if n.endswith("Error")])
def test_the_exception_types_are_still_exceptions(name):
    assert issubclass(getattr(internals, name), Exception)


def test_the_provider_errors_keep_the_attributes_fault_reading_uses():
    assert {"status", "retry_after"} <= set(parameters(internals.LMProviderError.__init__))
    assert internals.LMProviderError("x", status=503, retry_after=2.0).status == 503
    assert issubclass(internals.LMRateLimitError, internals.LMProviderError)
    assert issubclass(internals.LMServerError, internals.LMProviderError)
