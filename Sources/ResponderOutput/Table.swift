/// Left-aligned columns separated by two spaces.
package enum Table {
    package static func print(header: [String], rows: [[String]]) {
        let all = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        for row in all {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        for row in all {
            let cells = row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }
            var line = cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            Output.line(line)
        }
    }
}
