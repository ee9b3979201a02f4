"""`referee doctor` tells the truth: every protection it can report has tests
that attack exactly it, and what it observes from inside a probe confined as
a bot matches what it claims.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from referee.doctor import observe
from referee.sandbox import Confinement, probe

ROOT = Path(__file__).resolve().parent.parent

# Protection (as doctor names it) -> the tests that attack it ("module::test").
ATTACKED_BY: dict[str, list[str]] = {
    "own unprivileged uid": [
        "test_adversarial::test_no_capability_escape_from_the_sandbox",
        "test_confinement_unsandboxed::"
        "test_bots_of_different_uids_cannot_signal_ptrace_or_read_each_other",
    ],
    "process group": [
        "test_adversarial::test_fork_bomb_children_are_all_killed",
        "test_adversarial::test_sigstop_on_itself_stalls_and_is_still_killed",
    ],
    "no orphans": [
        "test_adversarial::test_setsid_double_fork_escape_is_killed",
        "test_confinement_unsandboxed::test_an_escaped_grandchild_dies_with_a_sigkilled_referee",
        "test_confinement_unsandboxed::"
        "test_an_escaped_grandchild_dies_with_a_sigkilled_referee_without_cgroups",
    ],
    "capped output": ["test_adversarial::test_100_mb_to_stdout_neither_blocks_nor_fills_the_disk"],
    "total memory limit": [
        "test_adversarial::test_memory_bomb_is_stopped_by_the_limit",
        "test_adversarial::test_tmpfs_pages_count_against_the_memory_limit",
        "test_confinement_unsandboxed::"
        "test_shared_memory_counts_against_the_memory_limit_and_is_removed",
    ],
    "process limit": [
        "test_adversarial::test_a_fork_bomb_stops_at_the_process_limit_also_for_root",
        "test_confinement_unsandboxed::test_the_process_limit_holds_for_a_bot_of_a_root_referee",
    ],
    "cpu time limit": [
        "test_adversarial::test_cpu_time_counts_children_and_a_bot_past_its_limit_is_killed",
        "test_confinement_unsandboxed::"
        "test_cpu_time_counts_setsid_children_and_the_freezer_stops_them",
    ],
    "fair clocks": [
        "test_adversarial::test_a_cpu_hog_with_setsid_children_never_costs_another_bot_its_time",
    ],
    "disk and file count limit": [
        "test_adversarial::test_a_tmpfs_bomb_stops_at_the_disk_limit",
        "test_adversarial::test_an_inode_bomb_stops_at_the_file_count_limit",
        "test_adversarial::test_a_total_disk_bomb_is_bounded_and_touches_no_host_disk",
    ],
    "file size limit": ["test_adversarial::test_disk_fill_is_stopped_by_the_file_size_limit"],
    "open files limit": [
        "test_adversarial::test_a_file_descriptor_bomb_stops_at_the_open_files_limit"
    ],
    "no network": ["test_adversarial::test_network_is_cut_off_in_the_sandbox"],
    "read-only system and own directory": [
        "test_adversarial::test_a_bot_writes_nowhere_but_its_scratch_space",
        "test_adversarial::test_no_capability_escape_from_the_sandbox",
    ],
    "results, logs, other bots, referee hidden": [
        "test_adversarial::test_results_and_other_bots_files_are_hidden",
        "test_adversarial::test_a_game_log_inside_the_bots_own_directory_is_hidden",
        "test_adversarial::test_a_tmp_path_on_the_command_line_does_not_open_the_hosts_tmp",
        "test_secret_deals::test_no_bot_rebuilds_a_tournament_deal",
    ],
    "no host sockets": [
        "test_adversarial::test_the_environment_is_minimal_and_host_sockets_are_unreachable"
    ],
    "own endpoint only": [
        "test_adversarial::test_an_endpoint_cannot_be_hijacked_or_deleted",
        "test_adversarial::test_connection_and_silent_stream_floods_starve_nobody",
        "test_confinement_unsandboxed::"
        "test_an_endpoint_cannot_be_hijacked_or_another_reached_without_the_sandbox",
    ],
    "own PID namespace": [
        "test_adversarial::test_claiming_another_seats_secret_gets_nothing",
        "test_adversarial::test_the_environment_is_minimal_and_host_sockets_are_unreachable",
    ],
    "dies with the referee": [
        "test_tournament_run::test_sigkill_then_resume_gives_the_uninterrupted_results",
        "test_confinement_unsandboxed::test_an_escaped_grandchild_dies_with_a_sigkilled_referee",
    ],
}


def test_every_protection_doctor_reports_has_attacks_that_exist() -> None:
    names = [p.name for p in Confinement().protections()]
    assert sorted(names) == sorted(ATTACKED_BY), "a protection without attack tests"
    for protection, tests in ATTACKED_BY.items():
        assert tests, protection
        for test in tests:
            module_name, function = test.split("::")
            module = importlib.import_module(f"tests.{module_name}")
            assert callable(getattr(module, function, None)), f"{protection}: no {test}"


def test_the_probe_sees_what_doctor_claims() -> None:
    seen = dict(observe(Confinement()).lines)
    p = probe()
    uid = int(seen["uid"].split(",")[0])
    assert seen["CapEff"] == "0000000000000000" and seen["CapBnd"] == "0000000000000000"
    assert seen["NoNewPrivs"] == "1"
    if p.uids_work:
        first, last = Confinement().uid_range
        assert first <= uid <= last
        assert seen["Groups"] == ""
    if Confinement().summary()["read-only system and own directory"]:
        assert seen["root filesystem"] == "read-only"
        assert seen["network interfaces"] == "lo"
        assert seen["referee source"] == "hidden"
        assert seen["scratch"].startswith("writable")


def test_doctor_prints_the_uid_capabilities_and_cgroups() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "referee.cli", "doctor"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"},
    )
    assert out.returncode == 0, out.stderr
    assert "observed by a probe process confined as a bot" in out.stdout
    assert "CapEff" in out.stdout and "NoNewPrivs" in out.stdout
    layout = probe().cgroups
    if layout is not None:
        assert layout.describe() in out.stdout
