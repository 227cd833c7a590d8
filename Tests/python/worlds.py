"""Worlds for the picture tests: a large one (10,000 nodes) built as a grid of tiles of cells."""

from __future__ import annotations


def grid_world(tiles: int = 100, cells_per_tile: int = 96) -> dict:
    """app, window, rootVC, root, then `tiles` tiles in a 10-wide grid, each holding `cells_per_tile` buttons
    in a 8-wide grid. The defaults give 4 + 100 + 9,600 + delegate = 9,705 nodes; grid_world(100, 99) 10,005."""
    cols = 10
    tile_w, tile_h = 39, 84
    children = []
    for t in range(tiles):
        cells = []
        for c in range(cells_per_tile):
            cells.append({"id": f"c{t}-{c}", "kind": "control", "class": "UIButton",
                          "frame": [1 + (c % 8) * 4.6, 14 + (c // 8) * 5.5, 4, 5]})
        children.append({"id": f"t{t}", "kind": "view", "frame": [(t % cols) * tile_w, (t // cols) * tile_h, tile_w - 1, tile_h - 1],
                         "clipsToBounds": True, "children": cells})
    root = {"id": "root", "kind": "view", "frame": [0, 0, 390, 844], "children": children}
    return {"id": "app", "kind": "application", "children": [
        {"id": "delegate", "kind": "appDelegate"},
        {"id": "window", "kind": "window", "frame": [0, 0, 390, 844], "key": True, "children": [
            {"id": "rootVC", "kind": "viewController", "children": [root]}]}]}


def count(tree: dict) -> int:
    n, stack = 0, [tree]
    while stack:
        node = stack.pop()
        n += 1
        stack.extend(node.get("children", []))
    return n
