import ResponderJSON

/// A small world: key window W with RVC whose root view R holds A and a button B, which the engine and CLI
/// tests check line by line.
package enum Fixtures {
    package static let world: JSON = [
        "tree": [
            "id": "app", "kind": "application",
            "children": [
                ["id": "AD", "kind": "appDelegate"],
                [
                    "id": "W", "kind": "window", "frame": [0, 0, 400, 800], "key": true,
                    "children": [
                        [
                            "id": "RVC", "kind": "viewController",
                            "children": [
                                [
                                    "id": "R", "kind": "view", "frame": [0, 0, 400, 800],
                                    "children": [
                                        ["id": "A", "kind": "view", "frame": [0, 0, 300, 300]],
                                        ["id": "B", "kind": "control", "class": "UIButton", "frame": [10, 400, 100, 44]]
                                    ]
                                ]
                            ]
                        ]
                    ]
                ]
            ]
        ]
    ]
}
