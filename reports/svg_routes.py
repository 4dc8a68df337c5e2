"""The geometry of the HTML report's SVG: lane and row sizes, and edge routes that never cross
a node.

Nodes sit in five lanes with a free gutter between lanes and a free gap between rows. An edge
between neighbouring lanes (or within one lane) is a curve that stays inside one gutter; a
longer edge runs down a gutter, along the row gap below its target's row and up the gutter
before its target, so it never passes over a node's box or text. The browser test measures
this (no sampled point of an edge falls inside any node's text).
"""

from __future__ import annotations

__all__ = ["WIDTH", "LANE_WIDTH", "NODE_WIDTH", "NODE_HEIGHT", "ROW_PITCH", "GUTTER", "TOP",
           "BAND_HEADER", "BAND_GAP", "KIND_CHARS", "LABEL_CHARS", "BAND_CHARS", "route"]

WIDTH = 1240
LANE_WIDTH = 248
NODE_WIDTH, NODE_HEIGHT, ROW_PITCH = 208, 52, 66
MARGIN = (LANE_WIDTH - NODE_WIDTH) // 2          # lane edge → node box
GUTTER = 2 * MARGIN                              # free space between two lanes' boxes
TOP, BAND_HEADER, BAND_GAP = 34, 26, 10
# What fits in NODE_WIDTH less the 10 px inset and a 6 px margin, in the monospace font the
# stylesheet sets (0.602 em per character): 10 px kind/place lines, 12 px bold label.
KIND_CHARS, LABEL_CHARS = 31, 26
BAND_CHARS = 28                                  # a band title stays left of the first gutter
_LANES = 5


def route(source: dict, target: dict, offset: int) -> tuple[str, int, int]:
    """An SVG path from `source` to `target` (nodes with x, y), the `offset`-th of its gutter
    (spreads parallel runs), and the point where a label would sit."""
    sy, ty = source["y"] + NODE_HEIGHT // 2, target["y"] + NODE_HEIGHT // 2
    s_lane, t_lane = _lane(source), _lane(target)
    lane_step = t_lane - s_lane
    inset = 8 + (offset % 6) * 4                  # 8…28 px into the 40 px gutter
    if lane_step == 1:
        sx, tx = source["x"] + NODE_WIDTH, target["x"]
        mid = (sx + tx) // 2
        return f"M{sx},{sy} C{mid},{sy} {mid},{ty} {tx},{ty}", mid, (sy + ty) // 2
    if lane_step == -1:
        sx, tx = source["x"], target["x"] + NODE_WIDTH
        mid = (sx + tx) // 2
        return f"M{sx},{sy} C{mid},{sy} {mid},{ty} {tx},{ty}", mid, (sy + ty) // 2
    if lane_step == 0:
        sx = source["x"] + NODE_WIDTH
        bend = sx + min(48, 16 + abs(ty - sy) // 8)   # the curve reaches 3/4 of this: < GUTTER
        return f"M{sx},{sy} C{bend},{sy} {bend},{ty} {sx},{ty}", bend, (sy + ty) // 2
    channel = target["y"] + NODE_HEIGHT + (ROW_PITCH - NODE_HEIGHT) // 2
    if lane_step > 1:
        sx, tx = source["x"] + NODE_WIDTH, target["x"]
        x1, x2 = sx + inset, tx - GUTTER + inset
    else:
        sx, tx = source["x"], target["x"] + NODE_WIDTH
        x1, x2 = sx - GUTTER + inset, tx + inset
    return (f"M{sx},{sy} H{x1} V{channel} H{x2} V{ty} H{tx}", (x1 + x2) // 2, channel)


def _lane(node: dict) -> int:
    return min(_LANES - 1, int(node["x"]) // LANE_WIDTH)
