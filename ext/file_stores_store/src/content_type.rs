//! Content types from file names, and from file signatures when a name does
//! not tell.
//!
//! The table is the gem's own, the same on every machine whatever Marcel is
//! installed. It agrees with Marcel 1.0.4 (Rails' sniffer, in Rails 7.2 and
//! Debian 13) on the common types, with a few deliberate exceptions where Marcel's answer would mislead a model or a
//! converter registry: Markdown is `text/markdown` (Marcel says
//! `text/x-web-markdown`), `.rs` is Rust source (Marcel says an XML type),
//! and source and data formats Marcel does not know get a type that says what
//! they are instead of `application/octet-stream`. Names win over signatures,
//! as in Marcel, except that an unknown or missing extension falls back to
//! the bytes: images and PDFs need no extension.

/// The type of bytes that could not be identified.
pub const OCTET_STREAM: &str = "application/octet-stream";

/// How many leading bytes [`sniff`] looks at.
pub const SNIFF_BYTES: usize = 8192;

/// The content type for a file name, if its extension is known.
pub fn from_name(name: &str) -> Option<&'static str> {
    let base = name.rsplit('/').next().unwrap_or(name);
    let ext = match base.rfind('.') {
        Some(i) if i > 0 => &base[i + 1..],
        _ => return from_bare_name(base),
    };
    let ext = ext.to_ascii_lowercase();
    let ty = match ext.as_str() {
        // Text and data
        "txt" | "text" => "text/plain",
        "md" | "markdown" | "mdown" | "mkd" => "text/markdown",
        "csv" => "text/csv",
        "tsv" => "text/tab-separated-values",
        "json" => "application/json",
        "jsonl" | "ndjson" => "application/x-ndjson",
        "yaml" | "yml" => "text/x-yaml",
        "xml" => "application/xml",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "ics" => "text/calendar",
        "vtt" => "text/vtt",
        "srt" => "application/x-subrip",
        "log" => "text/x-log",
        "ini" => "text/x-ini",
        "toml" => "application/toml",
        "sql" => "application/sql",
        "rtf" => "application/rtf",
        "eml" => "message/rfc822",
        // Source code
        "js" | "mjs" | "cjs" => "application/javascript",
        "jsx" => "text/jsx",
        "ts" | "tsx" => "text/x-typescript",
        "rb" | "rake" | "gemspec" => "text/x-ruby",
        "erb" => "text/x-erb",
        "py" => "text/x-python",
        "rs" => "text/x-rust",
        "go" => "text/x-go",
        "java" => "text/x-java-source",
        "c" | "cc" | "cpp" | "cxx" => "text/x-c++src",
        "h" | "hh" | "hpp" => "text/x-c++hdr",
        "sh" | "bash" => "application/x-sh",
        "php" => "text/x-php",
        "pl" => "text/x-perl",
        "scala" => "text/x-scala",
        "lua" => "text/x-lua",
        "hs" => "text/x-haskell",
        "kt" | "kts" => "text/x-kotlin",
        "swift" => "text/x-swift",
        "ex" | "exs" => "text/x-elixir",
        "scss" => "text/x-scss",
        "less" => "text/x-less",
        "vue" => "text/x-vue",
        // Images
        "png" => "image/png",
        "jpg" | "jpeg" | "jpe" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "bmp" => "image/bmp",
        "tif" | "tiff" => "image/tiff",
        "ico" => "image/vnd.microsoft.icon",
        "heic" => "image/heic",
        "avif" => "image/avif",
        // Documents
        "pdf" => "application/pdf",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx" => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "ppsx" => "application/vnd.openxmlformats-officedocument.presentationml.slideshow",
        "potx" => "application/vnd.openxmlformats-officedocument.presentationml.template",
        "docm" => "application/vnd.ms-word.document.macroenabled.12",
        "xlsm" => "application/vnd.ms-excel.sheet.macroenabled.12",
        "pptm" => "application/vnd.ms-powerpoint.presentation.macroenabled.12",
        "doc" => "application/msword",
        "xls" => "application/vnd.ms-excel",
        "ppt" => "application/vnd.ms-powerpoint",
        "odt" => "application/vnd.oasis.opendocument.text",
        "ods" => "application/vnd.oasis.opendocument.spreadsheet",
        "odp" => "application/vnd.oasis.opendocument.presentation",
        "epub" => "application/epub+zip",
        // Archives and media
        "zip" => "application/zip",
        "gz" | "tgz" => "application/gzip",
        "tar" => "application/x-tar",
        "parquet" => "application/x-parquet",
        "mp3" => "audio/mpeg",
        "wav" => "audio/x-wav",
        "ogg" => "audio/ogg",
        "mp4" => "video/mp4",
        "mov" => "video/quicktime",
        "webm" => "video/webm",
        _ => return None,
    };
    Some(ty)
}

fn from_bare_name(base: &str) -> Option<&'static str> {
    match base {
        "Makefile" | "Dockerfile" | "Gemfile" | "Rakefile" | "Procfile" | "README" | "LICENSE" => {
            Some("text/plain")
        }
        _ => None,
    }
}

/// The content type of some leading bytes of a file, from its signature; text
/// (UTF-8 without NUL, or UTF-16 or UTF-32 with a BOM) is `text/plain`.
pub fn sniff(head: &[u8]) -> &'static str {
    let starts = |sig: &[u8]| head.starts_with(sig);
    if starts(b"\x89PNG\r\n\x1a\n") {
        "image/png"
    } else if starts(b"\xff\xd8\xff") {
        "image/jpeg"
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        "image/gif"
    } else if head.len() >= 12 && &head[..4] == b"RIFF" && &head[8..12] == b"WEBP" {
        "image/webp"
    } else if starts(b"%PDF-") {
        "application/pdf"
    } else if starts(b"II*\0") || starts(b"MM\0*") {
        "image/tiff"
    } else if head.len() >= 12
        && &head[4..8] == b"ftyp"
        && matches!(&head[8..12], b"heic" | b"heix" | b"mif1")
    {
        "image/heic"
    } else if starts(b"PK\x03\x04") {
        "application/zip"
    } else if starts(b"\x1f\x8b") {
        "application/gzip"
    } else if looks_like_text(head) {
        "text/plain"
    } else {
        OCTET_STREAM
    }
}

/// Whether leading bytes look like text: a UTF-16 or UTF-32 BOM (see
/// [`crate::text::Encoding`]), or UTF-8 with no NUL (a character cut at the
/// end of the sample is allowed).
pub fn looks_like_text(head: &[u8]) -> bool {
    if crate::text::Encoding::of(head).is_wide() {
        return true;
    }
    if head.contains(&0) {
        return false;
    }
    match std::str::from_utf8(head) {
        Ok(_) => true,
        // error_len() is None when the input ends in the middle of a character.
        Err(e) => e.error_len().is_none() && head.len() - e.valid_up_to() < 4,
    }
}

/// The content type of a file: from its name when the name tells, else from
/// its leading bytes. A name that claims a format without text of its own
/// (`fplsp.doc`) over bytes that are plain text and carry none of the
/// signatures [`sniff`] knows (OLE, ZIP, PDF, images...) is `text/plain`:
/// such files are text in the wild, and a real one of those formats never
/// starts with text alone.
pub fn detect(name: &str, head: &[u8]) -> &'static str {
    match from_name(name) {
        Some(ty) if !is_text(ty) && !head.is_empty() => match sniff(head) {
            TEXT => TEXT,
            _ => ty,
        },
        Some(ty) => ty,
        None => sniff(head),
    }
}

const TEXT: &str = "text/plain";

/// Whether a content type is one whose bytes are text a model can read as is.
pub fn is_text(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || matches!(
            content_type,
            "application/json"
                | "application/x-ndjson"
                | "application/xml"
                | "application/javascript"
                | "application/x-sh"
                | "application/sql"
                | "application/toml"
                | "application/x-subrip"
                | "image/svg+xml"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_decide_first() {
        assert_eq!(detect("brief.md", b""), "text/markdown");
        assert_eq!(detect("a/B.PDF", b""), "application/pdf");
        assert_eq!(detect("x.png", b"%PDF-1.7"), "image/png");
        assert_eq!(from_name(".env"), None);
        assert_eq!(from_name("Makefile"), Some("text/plain"));
    }

    #[test]
    fn signatures_when_the_name_does_not_tell() {
        assert_eq!(detect("scan", b"%PDF-1.4\n"), "application/pdf");
        assert_eq!(detect("photo", b"\xff\xd8\xff\xe0\0\x10JFIF"), "image/jpeg");
        assert_eq!(
            detect("pic.unknownext", b"\x89PNG\r\n\x1a\nxxxx"),
            "image/png"
        );
        assert_eq!(detect("anim", b"GIF89a...."), "image/gif");
        assert_eq!(detect("w", b"RIFF\0\0\0\0WEBPVP8 "), "image/webp");
        assert_eq!(detect("notes", b"plain words\n"), "text/plain");
        assert_eq!(detect("blob", b"\0\x01\x02"), OCTET_STREAM);
    }

    #[test]
    fn text_named_as_a_binary_format_is_text() {
        // arch/m68k/ifpsp060/fplsp.doc in the Linux tree is plain text.
        assert_eq!(
            detect("fplsp.doc", b"MOTOROLA MICROPROCESSOR\n"),
            "text/plain"
        );
        assert_eq!(detect("notes.pdf", b"just words\n"), "text/plain");
        assert_eq!(
            detect("old.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\0\0"),
            "application/msword"
        );
        assert_eq!(
            detect("a.docx", b"PK\x03\x04\x14\0"),
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        );
        assert_eq!(detect("a.pdf", b"%PDF-1.7\n"), "application/pdf");
        assert_eq!(detect("empty.pdf", b""), "application/pdf");
        assert_eq!(detect("x.png", b"\x89PNG\r\n\x1a\n"), "image/png");
    }

    #[test]
    fn text_with_a_cut_character_is_text() {
        let s = "caf\u{e9}".as_bytes();
        assert!(looks_like_text(&s[..s.len() - 1]));
        assert!(!looks_like_text(b"\xff\xff\xffabc"));
        assert!(looks_like_text(b"\xff\xfeh\0i\0"));
        assert!(looks_like_text(b"\xff\xfe\0\0h\0\0\0"));
        assert!(looks_like_text(b"\0\0\xfe\xff\0\0\0h"));
    }
}
