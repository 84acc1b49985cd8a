"""The broadcast hub: the contract the live pipeline publishes against (docs/web-api.md)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest

from cardref.web.hub import Command, CommandQueue, Hub, MessageError
from cardref.web.messages import call_message, state_message, verdict_message
from referee.verdict import Event, Illegal

JPEG = b"\xff\xd8" + b"\x00" * 100


def verdict(i: int) -> dict[str, Any]:
    return {"type": "verdict", "kind": "legal", "t": float(i), "text": f"move {i}"}


def drain(sub: Any) -> list[Any]:
    out = []
    while (item := sub.get_nowait()) is not None:
        out.append(item)
    return out


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_viewer_gets_every_message_in_order_with_seq_and_time() -> None:
    async def main() -> list[dict[str, Any]]:
        hub = Hub(clock=lambda: 1000.0)
        sub = hub.subscribe(snapshot=False)
        for i in range(5):
            hub.publish(verdict(i))
        return [json.loads(item.text) for item in drain(sub)]

    got = run(main())
    assert [m["text"] for m in got] == [f"move {i}" for i in range(5)]
    assert [m["hub_seq"] for m in got] == [1, 2, 3, 4, 5]
    assert all(m["sent"] == 1000.0 for m in got)


@pytest.mark.parametrize(
    "message, words",
    [
        ({"type": "gossip"}, "unknown message type"),
        ({"type": "verdict", "kind": "illegal", "rule": "K4"}, "needs 'rule'"),
        ({"type": "verdict", "kind": "maybe"}, "verdict 'kind'"),
        ({"type": "call"}, "needs 'call'"),
        ({"type": "state", "state": {}}, "needs 'game'"),
        ({"type": "frame", "jpeg": JPEG, "height": 10}, "'width'"),
        ({"type": "frame", "width": 10, "height": 10}, "'jpeg'"),
        ({"type": "verdict", "kind": "legal", "t": float("nan")}, "finite"),
        ({"type": "verdict", "kind": "legal", "move": object()}, "not plain JSON"),
    ],
)
def test_messages_that_break_the_contract_are_refused_with_a_reason(message: dict[str, Any], words: str) -> None:
    with pytest.raises(MessageError, match=words):
        Hub().publish(message)


def test_the_live_pipelines_spellings_are_normalised() -> None:
    async def main() -> list[dict[str, Any]]:
        hub = Hub()
        sub = hub.subscribe(snapshot=False)
        hub.publish({"type": "verdict", "kind": "move", "t": 1.0, "text": "t1->t2"})
        hub.publish({"type": "frame", "jpeg": JPEG, "size": [640, 480], "cards": []})
        return [json.loads(i.text) for i in drain(sub)]

    legal, frame = run(main())
    assert legal["kind"] == "legal"
    assert (frame["width"], frame["height"], frame["bytes"]) == (640, 480, len(JPEG))
    assert "size" not in frame and "jpeg" not in frame


def test_a_slow_viewer_drops_its_oldest_messages_counted_and_the_publisher_never_waits() -> None:
    async def main() -> tuple[list[str], int, float]:
        hub = Hub(queue_size=4)
        slow = hub.subscribe(snapshot=False)  # never reads while we publish
        others = [hub.subscribe(snapshot=False) for _ in range(50)]
        started = time.perf_counter()
        for i in range(1000):
            hub.publish(verdict(i))
            if i % 10 == 9:
                await asyncio.sleep(0)  # the web server's loop runs now and then, its viewers do not read
        took = time.perf_counter() - started
        kept = [json.loads(i.text)["text"] for i in drain(slow)]
        assert all(o.dropped == 996 for o in others)
        return kept, slow.dropped, took

    kept, dropped, took = run(main())
    assert kept == ["move 996", "move 997", "move 998", "move 999"]
    assert dropped == 996
    assert took < 2.0, f"1000 publishes to 51 stalled viewers took {took:.2f} s"


def test_frames_do_not_queue_a_viewer_holds_only_the_newest_and_never_loses_a_verdict_to_them() -> None:
    async def main() -> tuple[list[Any], int]:
        hub = Hub(queue_size=2)
        sub = hub.subscribe(snapshot=False)
        hub.publish(verdict(1))
        for i in range(10):
            hub.publish({"type": "frame", "jpeg": JPEG, "width": 10, "height": 10, "t": float(i)})
        hub.publish(verdict(2))
        return drain(sub), sub.dropped

    items, dropped = run(main())
    kinds = [(i.type, json.loads(i.text).get("t")) for i in items]
    assert kinds == [("verdict", 1.0), ("verdict", 2.0), ("frame", 9.0)]
    assert items[-1].jpeg == JPEG
    assert dropped == 9


def test_a_viewer_without_frames_and_a_viewer_with_chosen_types() -> None:
    async def main() -> tuple[list[str], list[str]]:
        hub = Hub()
        referee = hub.subscribe(frames=False, snapshot=False)
        calls_only = hub.subscribe(types=frozenset({"call"}), frames=False, snapshot=False)
        hub.publish({"type": "frame", "jpeg": JPEG, "width": 10, "height": 10})
        hub.publish(verdict(1))
        hub.publish(call_message(Event("stress", player=0)))
        return [i.type for i in drain(referee)], [i.type for i in drain(calls_only)]

    assert run(main()) == (["verdict", "call"], ["call"])


def test_an_oversized_or_non_jpeg_frame_is_refused_and_counted_not_raised() -> None:
    hub = Hub(max_frame_bytes=1000)
    assert hub.publish({"type": "frame", "jpeg": b"\xff\xd8" + b"x" * 2000, "width": 1, "height": 1}) == 0
    assert hub.publish({"type": "frame", "jpeg": b"PNG....", "width": 1, "height": 1}) == 0
    assert hub.stats()["rejected_frames"] == 2
    assert hub.latest_frame() is None


def test_a_late_viewer_gets_the_snapshot_and_a_new_game_clears_the_history() -> None:
    async def main() -> tuple[list[str], list[str]]:
        hub = Hub()
        hub.publish({"type": "status", "camera": "online", "fps": 12.0})
        hub.publish({"type": "status", "dropped": 3})  # partial: merged into what is known
        hub.publish({"type": "state", "game": "klondike", "game_id": "g1", "state": {}})
        hub.publish(verdict(1))
        hub.publish(call_message(Event("won")))
        hub.publish({"type": "frame", "jpeg": JPEG, "width": 4, "height": 3})
        late = [json.loads(i.text) for i in drain(hub.subscribe())]
        status = next(m for m in late if m["type"] == "status")
        assert (status["camera"], status["fps"], status["dropped"]) == ("online", 12.0, 3)
        hub.publish({"type": "state", "game": "klondike", "game_id": "g2", "state": {}})
        later = [json.loads(i.text)["type"] for i in drain(hub.subscribe())]
        return [m["type"] for m in late], later

    late, later = run(main())
    assert late == ["status", "state", "verdict", "call", "frame"]
    assert later == ["status", "state", "frame"]


def test_publishing_from_the_pipeline_thread_wakes_a_waiting_viewer() -> None:
    async def main() -> float:
        hub = Hub()
        sub = hub.subscribe(snapshot=False)
        published = threading.Event()

        def pipeline() -> None:
            time.sleep(0.05)
            hub.publish(verdict(7))
            published.set()

        threading.Thread(target=pipeline).start()
        started = time.perf_counter()
        item = await asyncio.wait_for(sub.get(), timeout=5)
        assert json.loads(item.text)["text"] == "move 7"
        return time.perf_counter() - started

    assert run(main()) < 2.0


def test_a_stalled_web_server_loop_loses_old_messages_not_the_publishers_time() -> None:
    async def main() -> tuple[int, list[str], int]:
        hub = Hub(queue_size=8)
        sub = hub.subscribe(snapshot=False)
        for i in range(500):  # the loop never runs meanwhile
            hub.publish(verdict(i))
        kept = [json.loads(i.text)["text"] for i in drain(sub)]
        return hub.loop_dropped, kept, hub.stats()["dropped"]

    loop_dropped, kept, dropped = run(main())
    assert loop_dropped == 500 - (8 + 64)
    assert kept == [f"move {i}" for i in range(492, 500)]
    assert dropped == 492


def test_publish_after_the_viewers_loop_has_closed_does_not_raise() -> None:
    hub = Hub()

    async def main() -> None:
        hub.subscribe(snapshot=False)

    run(main())
    hub.publish(verdict(1))  # the subscription's loop is gone: nothing to wake, nothing raised


def test_the_command_queue_is_bounded_and_drops_the_oldest() -> None:
    q = CommandQueue(maxsize=2)
    seen: list[str] = []
    q.listen(lambda c: seen.append(c.kind))
    for kind in ("start", "pause", "resume"):
        q.put(Command(kind))
    assert q.dropped == 1
    assert [q.get().kind, q.get().kind] == ["pause", "resume"]  # type: ignore[union-attr]
    assert q.get() is None
    assert seen == ["start", "pause", "resume"]


def test_message_builders_make_what_the_hub_accepts() -> None:
    from referee import klondike

    deal = klondike.deal(3)
    state = klondike.new_game(deal)
    hub = Hub()
    hub.publish(state_message("klondike", state, game_id="x", players=["Anna"], t=2.0, moves=0))
    hub.publish(verdict_message(Illegal("waste->t1", "K4", "red on red"), t=3.0, cards=["8H", "9D"]))
    got = hub.latest("state")
    assert got is not None and got["cards_left"] == [52] and got["scores"] == [0]
    (illegal,) = hub.history()
    assert (illegal["kind"], illegal["rule"], illegal["cards"]) == ("illegal", "K4", ["8H", "9D"])


def test_the_publishers_cost_does_not_grow_with_the_number_of_viewers() -> None:
    async def cost(viewers: int) -> float:
        hub = Hub()
        subs = [hub.subscribe(snapshot=False) for _ in range(viewers)]
        best = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            for i in range(200):
                hub.publish(verdict(i))
            best = min(best, time.perf_counter() - started)
            await asyncio.sleep(0)  # the loop hands the messages to the viewers, on its own time
            for s in subs:
                drain(s)
        return best

    one, many = run(cost(1)), run(cost(300))
    assert many < one * 3, f"200 publishes: {one * 1000:.2f} ms with 1 viewer, {many * 1000:.2f} ms with 300"
