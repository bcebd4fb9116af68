"""bench/batch.py's arithmetic: thread CPU from /proc, CPU per stage counted where it ran, the CPU-bound limit."""

import threading
import time

import pytest

from bench.batch import CpuBound, Stages, stage_cpu, task_cpu_seconds


def test_a_task_stat_line_gives_user_plus_system_time_even_with_a_spaced_name():
    stat = "4242 (python (worker)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 123 0 0"
    assert task_cpu_seconds(stat, ticks=100) == pytest.approx(3.0)


def test_each_thread_counts_its_stages_and_its_own_rest():
    threads_s = {1: 10.0, 2: 6.0, 3: 5.0, 9: 4.0}  # 1 the event loop, 2 and 3 workers, 9 a native thread
    staged_s = {(1, "extraction"): 2.0, (2, "judging"): 4.0, (2, "model calling thread"): 1.5, (3, "retrieval"): 5.2}
    stages = stage_cpu(threads_s, staged_s, event_loop=1, python_threads={1, 2, 3})
    assert stages == pytest.approx({"extraction": 2.0, "judging": 4.0, "model calling thread": 1.5, "retrieval": 5.2,
                                    "event loop rest": 8.0, "worker threads rest": 0.5,
                                    "model native threads": 4.0})
    # thread 3's stage counted a little more than /proc's ticks: its rest is zero, not negative


def test_nested_stages_count_only_their_own_time():
    stages = Stages()

    def busy(seconds: float) -> None:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    inner = stages.cpu("retrieval", busy)
    outer = stages.cpu("judging", lambda: (busy(0.02), inner(0.03)))
    worker = threading.Thread(target=outer)
    worker.start()
    worker.join()
    counted = {name: seconds for (thread, name), seconds in stages.cpu_s.items() if thread == worker.native_id}
    assert counted["retrieval"] == pytest.approx(0.03, abs=0.01)
    assert counted["judging"] == pytest.approx(0.02, abs=0.01)
    assert stages.calls == {"retrieval": 1, "judging": 1}


@pytest.mark.parametrize(("cores", "model", "pipeline", "limit"), [
    (2, 1.0, 0.5, 80.0),   # 120 core-seconds a minute, 1.5 per answer
    (4, 1.0, 0.5, 160.0),
    (2, 0.0, 0.2, 600.0),  # lexical-only: the pipeline alone
])
def test_the_limit_is_the_cores_minute_over_the_core_seconds_one_answer_needs(cores, model, pipeline, limit):
    bound = CpuBound(cores, model, pipeline)
    assert bound.answers_per_min == pytest.approx(limit)
    assert bound.share(limit / 2) == pytest.approx(0.5)
