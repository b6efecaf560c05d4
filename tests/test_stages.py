"""``programs.stages`` says what each stage takes: its Protocols match the real calls."""

from __future__ import annotations

import inspect

import pytest

import programs.stages as stages
from programs.composer import ReportComposer
from programs.planner import SlicePlanner
from programs.probe_loop import ProbeLoop
from programs.probes import ProbeGenerator
from programs.researcher import Researcher
from programs.reviewer import Reviewer
from programs.synthesiser import SliceSynthesiser
from signatures.researcher import ResearchProbe


def _parameters(function) -> list[str]:
    names = list(inspect.signature(function).parameters)
    return [n for n in names if n != "self"]


@pytest.mark.parametrize(
    ("protocol", "implementation"),
    [
        (stages.PlannerStage, SlicePlanner.forward),
        (stages.ProbesStage, ProbeGenerator.forward),
        (stages.ProbeStage, ProbeLoop.run),
        (stages.ReviewerStage, Reviewer.forward),
        (stages.SynthesiserStage, SliceSynthesiser.forward),
        (stages.ComposerStage, ReportComposer.forward),
    ],
)
def test_each_stage_protocol_takes_what_its_module_takes(protocol, implementation):
    assert _parameters(protocol.__call__) == _parameters(implementation)


def test_the_researcher_protocol_names_its_tools_and_its_signature_inputs():
    named = set(_parameters(stages.ResearcherStage.__call__))
    tools = {"tool", "on_search", "fact_tools"}
    assert tools <= set(_parameters(Researcher.forward))
    code_inputs = {"first_query", "first_skip", "computed"}
    assert named == tools | code_inputs | set(ResearchProbe.input_fields)
