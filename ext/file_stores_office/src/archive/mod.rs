//! The zip container of an Office file, read with limits.
//!
//! Office files come from users and models, so every byte taken out of the
//! archive is counted: a part may not expand past [`Limits::max_part`], the
//! parts read for one file past [`Limits::max_total`], and a large part may
//! not expand more than [`Limits::max_ratio`] times its compressed size (a zip
//! bomb). The sizes a zip's headers declare are checked first, and then the
//! bytes actually inflated, since headers can lie.

mod eocd;
mod source;

use std::collections::HashMap;
use std::io::Read;

use zip::result::ZipError;
use zip::ZipArchive;

use crate::xml;
use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};
use source::{Refusal, Source};

const MIB: u64 = 1024 * 1024;

/// How much an Office file may take. The defaults fit any real document.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The largest file accepted, in bytes.
    pub max_input: u64,
    /// The most one part (an XML file inside the zip) may expand to.
    pub max_part: u64,
    /// The most all the parts read for one file may expand to together.
    pub max_total: u64,
    /// The largest expansion ratio accepted for a part over 1 MiB.
    pub max_ratio: u64,
    /// The most text a conversion may produce, in bytes.
    pub max_output: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input: 256 * MIB,
            max_part: 256 * MIB,
            max_total: 1024 * MIB,
            max_ratio: 200,
            max_output: 256 * MIB,
        }
    }
}

/// A relationship from a part's `_rels/*.rels`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relationship {
    pub id: String,
    /// The type URI; compare its last segment with [`Relationship::is`], since
    /// Strict OOXML uses other URIs than Transitional for the same types.
    pub rel_type: String,
    /// The target as a part name inside the zip (resolved against the
    /// source part), or the URI as written when `external`.
    pub target: String,
    pub external: bool,
}

impl Relationship {
    /// Whether the type URI ends in `/kind` (such as "officeDocument",
    /// "styles", "numbering", "slide", "notesSlide").
    pub fn is(&self, kind: &str) -> bool {
        self.rel_type.rsplit('/').next() == Some(kind)
    }
}

/// An Office zip, opened for reading with limits and cancellation.
pub struct Archive<'a> {
    zip: ZipArchive<Source<'a>>,
    limits: Limits,
    cancel: &'a Cancel,
    inflated: u64,
    /// Part names folded (lower case, `\\` as `/`) to their index, built on
    /// the first lookup that needs it.
    folded: Option<HashMap<Vec<u8>, usize>>,
    /// Parts whose text had invalid UTF-8, and how many sequences each.
    repaired: Vec<(String, u64)>,
}

impl<'a> Archive<'a> {
    /// Opens the zip. Encrypted (password-protected) Office files are OLE
    /// compound files, not zips, and get an error saying so. The end record
    /// is checked first ([`eocd::check`]) and the open reads the file a few
    /// times over at most ([`source`]), checking the cancel flag as it reads.
    pub fn open(bytes: &'a [u8], limits: Limits, cancel: &'a Cancel) -> Result<Self> {
        if bytes.len() as u64 > limits.max_input {
            return Err(Error::conversion(format!(
                "the file is {} MB, over the {} MB limit for Office files",
                bytes.len() as u64 / MIB,
                limits.max_input / MIB
            )));
        }
        if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
            return Err(Error::conversion(if is_encrypted_ole(bytes) {
                "the file is password-protected (encrypted); save it without a password and add it again"
            } else {
                "the file is in the old binary Office format (.doc/.xls/.ppt), which is not read; save it as .docx/.xlsx/.pptx"
            }));
        }
        eocd::check(bytes)?;
        let (source, handle) = Source::new(bytes, cancel);
        let zip = match ZipArchive::new(source) {
            Ok(zip) => zip,
            Err(e) => {
                return Err(match handle.refusal() {
                    Some(Refusal::Cancelled) => Error::cancelled(),
                    Some(Refusal::OverBudget) => Error::conversion(format!(
                        "its zip directory took more than {} reads of the file to open, which looks crafted to make reading it slow (many end-of-central-directory records?)",
                        source::OPEN_PASSES
                    )),
                    None => zip_error("", e),
                })
            }
        };
        handle.lift();
        Ok(Archive {
            zip,
            limits,
            cancel,
            inflated: 0,
            folded: None,
            repaired: Vec::new(),
        })
    }

    /// The names of the parts, as stored.
    pub fn names(&self) -> Vec<String> {
        self.zip.file_names().map(str::to_owned).collect()
    }

    /// Whether a part exists.
    pub fn contains(&mut self, name: &str) -> bool {
        self.index_of(name).is_some()
    }

    /// The index of a part: by its name as written, then ignoring case and
    /// reading `\\` as `/` (some writers store `xl\\workbook.xml`), through a
    /// map built once, so thousands of lookups of missing parts stay linear.
    fn index_of(&mut self, name: &str) -> Option<usize> {
        let name = name.trim_start_matches('/');
        if let Some(index) = self.zip.index_for_name(name) {
            return Some(index);
        }
        let zip = &self.zip;
        let folded = self.folded.get_or_insert_with(|| {
            let mut map = HashMap::new();
            for (index, stored) in zip.file_names().enumerate() {
                map.entry(fold(stored.as_bytes())).or_insert(index);
            }
            map
        });
        folded.get(&fold(name.as_bytes())).copied()
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The cancellation flag, for loops over a part's content.
    pub fn cancel(&self) -> &'a Cancel {
        self.cancel
    }

    /// A part's bytes, or `None` when the zip has no part of that name
    /// (looked up without a leading `/`, as written, then as [`Archive::contains`] does).
    pub fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>> {
        let name = name.trim_start_matches('/');
        let Some(index) = self.index_of(name) else {
            return Ok(None);
        };
        self.cancel.check()?;
        let limits = self.limits;
        let remaining_total = limits.max_total.saturating_sub(self.inflated);
        let cancel = self.cancel;
        let mut part = match self.zip.by_index(index) {
            Ok(part) => part,
            Err(e) => {
                // A read the source refused when cancelled reads as an I/O error.
                cancel.check()?;
                return Err(zip_error(name, e));
            }
        };
        if part.encrypted() {
            return Err(Error::conversion(format!(
                "part {name} is encrypted; save the file without a password and add it again"
            )));
        }
        let declared = part.size();
        let compressed = part.compressed_size().max(1);
        let over = |size: u64| {
            if size > limits.max_part {
                too_big(name, size, limits.max_part)
            } else {
                too_much(name, limits.max_total)
            }
        };
        let cap = limits.max_part.min(remaining_total);
        if declared > cap {
            return Err(over(declared));
        }
        let mut out = Vec::with_capacity(declared.min(16 * MIB) as usize);
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            self.cancel.check()?;
            let n = match part.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => {
                    cancel.check()?;
                    return Err(Error::conversion(format!(
                        "the archive is corrupt or truncated (part {name}: {e})"
                    )));
                }
            };
            out.extend_from_slice(&chunk[..n]);
            let len = out.len() as u64;
            // Not every zip reader stops at the declared size (zip 7 reads on).
            if len > declared {
                return Err(Error::conversion(format!(
                    "the archive is corrupt: part {name} is larger than the {declared} bytes it declares"
                )));
            }
            if len > cap {
                return Err(over(len));
            }
            if len > MIB && len / compressed > limits.max_ratio {
                return Err(Error::conversion(format!(
                    "part {name} expands more than {}x its compressed size, which looks like a zip bomb",
                    limits.max_ratio
                )));
            }
        }
        drop(part);
        self.inflated += out.len() as u64;
        Ok(Some(self.lenient(name, out)?))
    }

    /// A part's bytes with each invalid UTF-8 sequence read as U+FFFD (as
    /// Excel and LibreOffice open such files), counted for
    /// [`Archive::repair_note`]. XML that is malformed in structure is still
    /// refused by the parser. A part starting with a UTF-16 byte order mark is
    /// left as it is.
    fn lenient(&mut self, name: &str, bytes: Vec<u8>) -> Result<Vec<u8>> {
        if std::str::from_utf8(&bytes).is_ok()
            || bytes.starts_with(&[0xFF, 0xFE])
            || bytes.starts_with(&[0xFE, 0xFF])
        {
            return Ok(bytes);
        }
        let mut fixed = Vec::with_capacity(bytes.len() + 64);
        let mut count = 0u64;
        for chunk in bytes.utf8_chunks() {
            fixed.extend_from_slice(chunk.valid().as_bytes());
            if !chunk.invalid().is_empty() {
                fixed.extend_from_slice("\u{FFFD}".as_bytes());
                count += 1;
                if fixed.len() as u64 > self.limits.max_part {
                    return Err(too_big(name, fixed.len() as u64, self.limits.max_part));
                }
            }
        }
        // A part read again (the package relationships, read to learn the
        // format and then by the reader) is noted once.
        if !self.repaired.iter().any(|(seen, _)| seen == name) {
            self.repaired.push((name.to_owned(), count));
        }
        Ok(fixed)
    }

    /// A line saying which parts had invalid UTF-8 read as U+FFFD; `None`
    /// when none had.
    pub fn repair_note(&self) -> Option<String> {
        let (first, _) = self.repaired.first()?;
        let total: u64 = self.repaired.iter().map(|(_, n)| n).sum();
        let sequences = if total == 1 { "sequence" } else { "sequences" };
        let has = match self.repaired.len() {
            1 => format!("part {first} of this file has"),
            n => format!("parts {first} and {} more of this file have", n - 1),
        };
        Some(format!(
            "[Note: {has} {total} invalid UTF-8 {sequences}, shown as \u{FFFD}.]"
        ))
    }

    /// A part that must exist.
    pub fn require(&mut self, name: &str) -> Result<Vec<u8>> {
        self.read(name)?.ok_or_else(|| {
            Error::conversion(format!(
                "the archive has no {name} part, so it is not a complete Office file"
            ))
        })
    }

    /// The relationships of a part (`word/document.xml` →
    /// `word/_rels/document.xml.rels`; the package's own with `""`), with
    /// targets resolved to part names. A missing rels part is no
    /// relationships.
    pub fn relationships(&mut self, part: &str) -> Result<Vec<Relationship>> {
        let (dir, file) = match part.rfind('/') {
            Some(i) => (&part[..i + 1], &part[i + 1..]),
            None => ("", part),
        };
        let rels_name = format!("{dir}_rels/{file}.rels");
        let Some(bytes) = self.read(&rels_name)? else {
            return Ok(Vec::new());
        };
        let mut rels = Vec::new();
        xml::for_each_start(&bytes, &rels_name, self.cancel, |element| {
            if element.name() == b"Relationship" {
                let external = element
                    .attr(b"TargetMode")
                    .is_some_and(|m| m.eq_ignore_ascii_case("external"));
                let target = element.attr(b"Target").unwrap_or_default();
                rels.push(Relationship {
                    id: element.attr(b"Id").unwrap_or_default(),
                    rel_type: element.attr(b"Type").unwrap_or_default(),
                    target: if external {
                        target
                    } else {
                        resolve(dir, &target)
                    },
                    external,
                });
            }
            Ok(())
        })?;
        Ok(rels)
    }
}

/// Resolves a relationship target against the folder of its source part
/// (`word/` + `../customXml/item1.xml` → `customXml/item1.xml`); a target
/// starting with `/` is from the package root.
pub fn resolve(dir: &str, target: &str) -> String {
    let joined = if let Some(absolute) = target.strip_prefix('/') {
        absolute.to_owned()
    } else {
        format!("{dir}{target}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for segment in joined.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// The folded form of a part name: ASCII lower case, `\\` as `/`.
fn fold(name: &[u8]) -> Vec<u8> {
    name.iter()
        .map(|&b| {
            if b == b'\\' {
                b'/'
            } else {
                b.to_ascii_lowercase()
            }
        })
        .collect()
}

/// The parts read for one file together went past the total limit.
fn too_much(name: &str, total: u64) -> Error {
    let total = megabytes(total);
    Error::conversion(format!(
        "its parts expand to more than {total} together (over the limit of {total}, reached at part {name}), which looks like a zip bomb"
    ))
}

fn too_big(name: &str, size: u64, cap: u64) -> Error {
    Error::conversion(format!(
        "part {name} expands to more than {} (over the limit of {}), which looks like a zip bomb",
        megabytes(size),
        megabytes(cap)
    ))
}

/// A size for a message: whole MB, or KB below one MB (never "0 MB").
fn megabytes(bytes: u64) -> String {
    if bytes >= MIB {
        format!("{} MB", bytes / MIB)
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

fn zip_error(part: &str, err: ZipError) -> Error {
    let what = match err {
        ZipError::InvalidArchive(_) | ZipError::Io(_) => {
            "it is not a valid Office file: the zip archive is corrupt or truncated".to_owned()
        }
        ZipError::UnsupportedArchive(why) => {
            format!("its zip archive uses a feature that is not supported ({why})")
        }
        ZipError::FileNotFound => "a part listed in the archive is missing".to_owned(),
        other => format!("its zip archive could not be read ({other})"),
    };
    if part.is_empty() {
        Error::conversion(what)
    } else {
        Error::conversion(format!("{what} (part {part})"))
    }
}

/// An OLE compound file holding an `EncryptionInfo` stream is an encrypted
/// OOXML package (MS-OFFCRYPTO); the stream names are UTF-16LE.
fn is_encrypted_ole(bytes: &[u8]) -> bool {
    let needle: Vec<u8> = "EncryptionInfo"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    memchr::memmem::find(bytes, &needle).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_targets_against_the_source_folder() {
        assert_eq!(resolve("word/", "styles.xml"), "word/styles.xml");
        assert_eq!(resolve("word/", "../customXml/a.xml"), "customXml/a.xml");
        assert_eq!(
            resolve("ppt/slides/", "/ppt/notesSlides/n1.xml"),
            "ppt/notesSlides/n1.xml"
        );
        assert_eq!(resolve("", "word/document.xml"), "word/document.xml");
    }

    #[test]
    fn finds_parts_stored_with_backslashes_or_another_case() {
        let bytes = crate::testing::zip_of(&[("xl\\Workbook.xml", "<w/>")]);
        let cancel = Cancel::new();
        let mut archive = Archive::open(&bytes, Limits::default(), &cancel).expect("opens");
        assert!(archive.contains("xl/workbook.xml"));
        assert!(archive.contains("XL/WORKBOOK.XML"));
        assert_eq!(
            archive.read("/xl/workbook.xml").expect("reads"),
            Some(b"<w/>".to_vec())
        );
        assert_eq!(archive.read("xl/workbook.xm").expect("reads"), None);
    }

    #[test]
    fn refuses_what_is_not_a_zip() {
        let cancel = Cancel::new();
        let err = Archive::open(b"not a zip at all", Limits::default(), &cancel).err();
        assert!(err.is_some_and(|e| e.to_string().contains("not a valid Office file")));
    }

    #[test]
    fn says_an_encrypted_file_is_password_protected() {
        let mut bytes = vec![0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
        bytes.extend(
            "EncryptionInfo"
                .encode_utf16()
                .flat_map(|u| u.to_le_bytes()),
        );
        let cancel = Cancel::new();
        let err = Archive::open(&bytes, Limits::default(), &cancel).err();
        assert!(err.is_some_and(|e| e.to_string().contains("password-protected")));
    }
}

#[cfg(test)]
mod tests_open;

#[cfg(test)]
mod limit_tests {
    use super::*;

    #[test]
    fn a_part_read_past_the_total_limit_names_the_total() {
        let content = "x".repeat(600 * 1024);
        let bytes = crate::testing::zip_of(&[("a.xml", &content)]);
        let cancel = Cancel::new();
        let limits = Limits {
            max_total: MIB,
            ..Limits::default()
        };
        let mut archive = Archive::open(&bytes, limits, &cancel).expect("opens");
        assert!(archive.read("a.xml").is_ok());
        let err = archive
            .read("a.xml")
            .expect_err("over the total")
            .to_string();
        assert!(
            err.contains("more than 1 MB together (over the limit of 1 MB, reached at part a.xml)"),
            "{err}"
        );
    }

    #[test]
    fn invalid_utf8_is_read_as_replacement_characters_with_a_note() {
        let cancel = Cancel::new();
        let bytes = {
            use std::io::Write;
            let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            let options = zip::write::SimpleFileOptions::default();
            writer.start_file("a.xml", options).expect("zip");
            writer.write_all(b"<a>caf\xE9 \xFF</a>").expect("zip");
            writer.finish().expect("zip").into_inner()
        };
        let mut archive = Archive::open(&bytes, Limits::default(), &cancel).expect("opens");
        assert_eq!(
            archive.read("a.xml").expect("reads"),
            Some("<a>caf\u{FFFD} \u{FFFD}</a>".as_bytes().to_vec())
        );
        assert_eq!(
            archive.repair_note().as_deref(),
            Some(
                "[Note: part a.xml of this file has 2 invalid UTF-8 sequences, shown as \u{FFFD}.]"
            )
        );
    }
}
