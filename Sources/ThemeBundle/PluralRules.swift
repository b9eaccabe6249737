/// CLDR plural categories for whole numbers, for the languages apps ship most: which form of a
/// plural string (`one`, `few`, `many`, ...) a count takes. Languages not listed use `one` for 1
/// and `other` for everything else; languages without plurals (ja, zh, ko, ...) always `other`.
public enum PluralRules {
    public static func category(of count: Int, language tag: String) -> String {
        let n = count.magnitude
        let (mod10, mod100) = (n % 10, n % 100)
        switch LanguageTag.language(tag) {
        case "ja", "zh", "ko", "th", "vi", "id", "ms", "lo", "my", "km", "yue":
            return "other"
        case "fr", "pt", "hy", "kab":
            // pt_PT counts like English; every other Portuguese like French.
            if LanguageTag.normalized(tag).region == "PT" { return n == 1 ? "one" : "other" }
            return n <= 1 ? "one" : "other"
        case "hi", "bn", "fa", "gu", "kn", "mr", "zu", "am":
            return n <= 1 ? "one" : "other"
        case "ru", "uk", "be":
            if mod10 == 1 && mod100 != 11 { return "one" }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return "few" }
            return "many"
        case "pl":
            if n == 1 { return "one" }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return "few" }
            return "many"
        case "cs", "sk":
            if n == 1 { return "one" }
            return (2...4).contains(n) ? "few" : "other"
        case "hr", "sr", "bs":
            if mod10 == 1 && mod100 != 11 { return "one" }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return "few" }
            return "other"
        case "ar":
            if n == 0 { return "zero" }
            if n == 1 { return "one" }
            if n == 2 { return "two" }
            if (3...10).contains(mod100) { return "few" }
            if (11...99).contains(mod100) { return "many" }
            return "other"
        case "he":
            if n == 1 { return "one" }
            return n == 2 ? "two" : "other"
        case "ro":
            if n == 1 { return "one" }
            return n == 0 || (1...19).contains(mod100) ? "few" : "other"
        case "lt":
            if mod10 == 1 && !(11...19).contains(mod100) { return "one" }
            if (2...9).contains(mod10) && !(11...19).contains(mod100) { return "few" }
            return "other"
        case "lv":
            if mod10 == 0 || (11...19).contains(mod100) { return "zero" }
            return mod10 == 1 && mod100 != 11 ? "one" : "other"
        case "ga":
            switch n {
            case 1: return "one"
            case 2: return "two"
            case 3...6: return "few"
            case 7...10: return "many"
            default: return "other"
            }
        case "cy":
            switch n {
            case 0: return "zero"
            case 1: return "one"
            case 2: return "two"
            case 3: return "few"
            case 6: return "many"
            default: return "other"
            }
        default:
            return n == 1 ? "one" : "other"
        }
    }
}
