import Foundation

/// Colour temperature as material-color-utilities reckons it (`TemperatureCache`): warm reds and
/// oranges, cool blues, from L*a*b* hue and chroma. A seed's analogous colours and complement,
/// at its chroma and tone, come from the 361 hues around it ordered by temperature.
struct Temperature {
    let input: Hct
    /// The input's chroma and tone at every whole hue, 0 through 360.
    private let byHue: [Hct]
    private let temperatures: [Double]
    private let inputTemperature: Double
    private let coldest: (hue: Double, temperature: Double)
    private let warmest: (hue: Double, temperature: Double)

    init(_ input: Hct) {
        let byHue = (0...360).map { Hct(hue: Double($0), chroma: input.chroma, tone: input.tone) }
        let temperatures = byHue.map(Self.raw)
        (self.input, self.byHue, self.temperatures, inputTemperature) = (input, byHue, temperatures, Self.raw(input))
        // Sorted as the reference sorts (stably, the input after the 361 hues).
        let all = (byHue.indices.map { (byHue[$0].hue, temperatures[$0], $0) } + [(input.hue, inputTemperature, byHue.count)])
            .sorted { ($0.1, $0.2) < ($1.1, $1.2) }
        coldest = (all[0].0, all[0].1)
        warmest = (all[all.count - 1].0, all[all.count - 1].1)
    }

    static func raw(_ color: Hct) -> Double {
        let lab = ColorMath.lab(color.argb)
        let hue = ColorMath.sanitizeDegrees(atan2(lab.b, lab.a) * 180 / Double.pi)
        let chroma = (lab.a * lab.a + lab.b * lab.b).squareRoot()
        return -0.5 + 0.02 * pow(chroma, 1.07) * cos(ColorMath.sanitizeDegrees(hue - 50) * Double.pi / 180)
    }

    private func relative(_ temperature: Double) -> Double {
        let range = warmest.temperature - coldest.temperature
        return range == 0 ? 0.5 : (temperature - coldest.temperature) / range
    }

    private static func isBetween(_ angle: Double, _ a: Double, _ b: Double) -> Bool {
        a < b ? a <= angle && angle <= b : a <= angle || angle <= b
    }

    /// The hue whose relative temperature is the input's mirrored, on the way round from one
    /// extreme to the other that does not pass the input.
    var complement: Hct {
        let range = warmest.temperature - coldest.temperature
        let start = Int(ColorMath.round(input.hue))
        if range == 0 { return byHue[start] }
        let startsColdToWarm = Self.isBetween(input.hue, coldest.hue, warmest.hue)
        let (startHue, endHue) = startsColdToWarm ? (warmest.hue, coldest.hue) : (coldest.hue, warmest.hue)
        var (smallestError, answer) = (1000.0, byHue[start])
        let wanted = 1 - relative(inputTemperature)
        for addend in 0...360 {
            let hue = ColorMath.sanitizeDegrees(startHue + Double(addend))
            guard Self.isBetween(hue, startHue, endHue) else { continue }
            let index = Int(ColorMath.round(hue))
            let error = abs(wanted - (temperatures[index] - coldest.temperature) / range)
            if error < smallestError { (smallestError, answer) = (error, byHue[index]) }
        }
        return answer
    }

    /// `count` colours spread evenly by temperature around the input, among `divisions` steps of
    /// the whole circle's change in temperature: the input in the middle.
    func analogous(count: Int = 5, divisions: Int = 12) -> [Hct] {
        let startHue = Int(ColorMath.round(input.hue))
        var lastTemperature = relative(temperatures[startHue])
        var allColors = [byHue[startHue]]
        var absoluteTotal = 0.0
        for i in 0..<360 {
            let temperature = relative(temperatures[ColorMath.sanitizeDegrees(startHue + i)])
            absoluteTotal += abs(temperature - lastTemperature)
            lastTemperature = temperature
        }
        var hueAddend = 1
        let step = absoluteTotal / Double(divisions)
        var total = 0.0
        lastTemperature = relative(temperatures[startHue])
        while allColors.count < divisions {
            let index = ColorMath.sanitizeDegrees(startHue + hueAddend)
            let temperature = relative(temperatures[index])
            total += abs(temperature - lastTemperature)
            var satisfied = total >= Double(allColors.count) * step
            var indexAddend = 1
            while satisfied && allColors.count < divisions {
                allColors.append(byHue[index])
                satisfied = total >= Double(allColors.count + indexAddend) * step
                indexAddend += 1
            }
            lastTemperature = temperature
            hueAddend += 1
            if hueAddend > 360 {
                while allColors.count < divisions { allColors.append(byHue[index]) }
                break
            }
        }
        var answers = [input]
        let increasing = (count - 1) / 2
        for i in stride(from: 1, through: increasing, by: 1) {
            var index = -i
            while index < 0 { index += allColors.count }
            answers.insert(allColors[index % allColors.count], at: 0)
        }
        for i in stride(from: 1, through: count - increasing - 1, by: 1) {
            answers.append(allColors[i % allColors.count])
        }
        return answers
    }
}
