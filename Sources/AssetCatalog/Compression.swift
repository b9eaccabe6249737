/// CELM compression ids (car-format.md 7.2), with assetutil's spelling.
public enum Compression {
    public static func name(_ id: Int) -> String {
        switch id {
        case 0: "uncompressed"
        case 1: "rle"
        case 2: "zip"
        case 3: "lzvn"
        case 4: "lzfse"
        case 5: "jpeg-lzfse"
        case 6: "blurred"
        case 7: "astc"
        case 8: "palette-img"
        case 9: "hevc"
        case 10: "deepmap-lzfse"
        case 11: "deepmap2"
        case 12: "dxtc"
        default: "unknown-\(id)"
        }
    }
}
