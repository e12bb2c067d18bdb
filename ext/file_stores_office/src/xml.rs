//! Helpers for reading Office XML with quick-xml, whatever the namespace
//! prefixes (`w:p`, `ns0:p` and Strict OOXML's other namespace URIs all read
//! the same): elements and attributes are matched by local name.
//!
//! quick-xml never expands entities declared in a DTD, so an entity bomb
//! ("billion laughs") is just an unknown reference here, which is dropped.
//!
//! Loops over a part check the cancel flag by work done ([`Progress`]): bytes
//! of XML read, plus bytes a reader copies, never by a count of events, since
//! one event can carry megabytes.

use quick_xml::events::{BytesCData, BytesRef, BytesStart, BytesText, Event};
use quick_xml::Reader;
use std::borrow::Cow;

use file_stores_base::cancel::Cancel;
use file_stores_base::error::{Error, Result};

/// Work (bytes read or copied) between two checks of the cancel flag: well
/// under a millisecond.
pub const CHECK_EVERY: u64 = 256 * 1024;

/// Checks the cancel flag each time [`CHECK_EVERY`] more bytes of work are
/// done.
pub struct Progress<'c> {
    cancel: &'c Cancel,
    done: u64,
    next: u64,
}

impl<'c> Progress<'c> {
    pub fn new(cancel: &'c Cancel) -> Self {
        Progress {
            cancel,
            done: 0,
            next: 0,
        }
    }

    /// Counts `bytes` more of work, checking the flag when due.
    pub fn add(&mut self, bytes: u64) -> Result<()> {
        self.done = self.done.saturating_add(bytes);
        if self.done >= self.next {
            self.cancel.check()?;
            self.next = self.done.saturating_add(CHECK_EVERY);
        }
        Ok(())
    }

    /// Counts a reader's progress: the bytes it consumed since the last call
    /// (at least one per event, so empty events count too).
    pub fn read(&mut self, reader: &Reader<&[u8]>, last: &mut u64) -> Result<()> {
        let position = reader.buffer_position();
        let bytes = position.saturating_sub(*last).max(1);
        *last = position;
        self.add(bytes)
    }
}

/// The most attributes of one element that are read. Office elements carry
/// a handful; the rest of an element with more is ignored.
pub const MAX_ATTRIBUTES: usize = 1_000;

/// An element's attributes, the first [`MAX_ATTRIBUTES`] of them, without
/// quick-xml's check for duplicated names: on a duplicate it compares the
/// name with every earlier one, so an element of 40,000 names and 40,000
/// copies of the last took 20 s and more in one event, with no cancel
/// check. A duplicated name is no harm here: the first one wins. Malformed
/// attributes are skipped.
pub fn attributes<'e>(
    e: &'e BytesStart<'_>,
) -> impl Iterator<Item = quick_xml::events::attributes::Attribute<'e>> {
    let mut all = e.attributes();
    all.with_checks(false);
    all.flatten().take(MAX_ATTRIBUTES)
}

/// A reader over a part's bytes, with whitespace kept (it is text in Word).
pub fn reader(bytes: &[u8]) -> Reader<&[u8]> {
    let mut reader = Reader::from_reader(bytes);
    let config = reader.config_mut();
    config.trim_text(false);
    config.check_end_names = true;
    reader
}

/// A start or empty element, read by local names.
pub struct Element<'e, 'b>(pub &'e BytesStart<'b>);

impl Element<'_, '_> {
    /// The local name, without any prefix.
    pub fn name(&self) -> &[u8] {
        local(self.0.name().0)
    }

    /// An attribute's unescaped value, found by local name (`w:val` and
    /// `val` both answer to `b"val"`) among the element's first
    /// [`MAX_ATTRIBUTES`] ([`attributes`]). Malformed attributes are skipped.
    pub fn attr(&self, name: &[u8]) -> Option<String> {
        attributes(self.0).find_map(|a| {
            if local(a.key.0) == name {
                Some(
                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .map(|v| v.into_owned())
                        .unwrap_or_else(|_| lossy(&a.value).into_owned()),
                )
            } else {
                None
            }
        })
    }

    /// Word's on/off attributes: absent `val`, "1", "true" and "on" are on.
    pub fn flag(&self) -> bool {
        !matches!(
            self.attr(b"val").as_deref(),
            Some("0" | "false" | "off" | "none")
        )
    }
}

/// The text of a text event, with its line ends normalized as XML 1.0
/// says. Bytes that are not UTF-8 read as U+FFFD.
pub fn text<'a>(t: &BytesText<'a>) -> Cow<'a, str> {
    t.xml10_content()
        .unwrap_or_else(|_| Cow::Owned(String::from_utf8_lossy(t).into_owned()))
}

/// The text of a CDATA section; bytes that are not UTF-8 read as U+FFFD.
pub fn cdata<'a>(t: &BytesCData<'a>) -> Cow<'a, str> {
    t.decode()
        .unwrap_or_else(|_| Cow::Owned(String::from_utf8_lossy(t).into_owned()))
}

/// Raw bytes (an attribute's value) as text; bytes that are not UTF-8 read
/// as U+FFFD.
pub fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// The local part of a qualified name.
pub fn local(qname: &[u8]) -> &[u8] {
    match memchr::memchr(b':', qname) {
        Some(i) => &qname[i + 1..],
        None => qname,
    }
}

/// The text of a character or predefined-entity reference (`&#x41;`,
/// `&amp;`); `None` for anything else, which is dropped.
pub fn ref_text(reference: &BytesRef) -> Option<char> {
    if let Ok(Some(c)) = reference.resolve_char_ref() {
        return Some(c);
    }
    std::str::from_utf8(reference)
        .ok()
        .and_then(quick_xml::escape::resolve_predefined_entity)
        .and_then(|s| s.chars().next())
}

/// A parse error, naming the part.
pub fn error(part: &str, err: impl std::fmt::Display) -> Error {
    Error::conversion(format!("part {part} is not well-formed XML ({err})"))
}

/// Calls `f` with every start and empty element of a part, in order.
pub fn for_each_start(
    bytes: &[u8],
    part: &str,
    cancel: &Cancel,
    mut f: impl FnMut(Element<'_, '_>) -> Result<()>,
) -> Result<()> {
    let mut reader = reader(bytes);
    let mut progress = Progress::new(cancel);
    let mut position = 0;
    loop {
        progress.read(&reader, &mut position)?;
        match reader.read_event() {
            Ok(Event::Start(ref e)) | Ok(Event::Empty(ref e)) => f(Element(e))?,
            Ok(Event::Eof) => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(error(part, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_names_and_attributes_whatever_the_prefix() {
        let xml =
            br#"<ns0:r xmlns:ns0="x"><ns0:pStyle ns0:val="Heading1"/><w:b w:val="0"/></ns0:r>"#;
        let mut seen = Vec::new();
        for_each_start(xml, "t.xml", &Cancel::new(), |e| {
            seen.push((
                String::from_utf8_lossy(e.name()).into_owned(),
                e.attr(b"val"),
                e.flag(),
            ));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen[1], ("pStyle".into(), Some("Heading1".into()), true));
        assert_eq!(seen[2], ("b".into(), Some("0".into()), false));
    }

    #[test]
    fn malformed_xml_is_an_error_naming_the_part() {
        let err = for_each_start(b"<a><b></a>", "word/document.xml", &Cancel::new(), |_| {
            Ok(())
        })
        .err();
        assert!(err.is_some_and(|e| e.to_string().contains("word/document.xml")));
    }
}

#[cfg(test)]
mod attribute_tests {
    use super::*;
    use std::fmt::Write as _;

    #[test]
    fn duplicated_names_cost_no_quadratic_check_and_the_first_wins() {
        let names = (1..=40_000).fold(String::new(), |mut names, i| {
            let _ = write!(names, " a{i}=\"\"");
            names
        });
        let copies = " a40000=\"x\"".repeat(40_000);
        let xml = format!(r#"<r v="first" v="second"{names}{copies} late="1"/>"#);
        let started = std::time::Instant::now();
        let mut seen = Vec::new();
        for_each_start(xml.as_bytes(), "t.xml", &Cancel::new(), |e| {
            seen.push((e.attr(b"v"), e.attr(b"missing"), e.attr(b"late")));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, [(Some("first".into()), None, None)]);
        assert!(started.elapsed().as_secs() < 2, "{:?}", started.elapsed());
    }

    #[test]
    fn reads_the_first_thousand_attributes_only() {
        let names = (1..=MAX_ATTRIBUTES + 1).fold(String::new(), |mut names, i| {
            let _ = write!(names, " a{i}=\"{i}\"");
            names
        });
        let xml = format!("<r{names}/>");
        let mut seen = Vec::new();
        for_each_start(xml.as_bytes(), "t.xml", &Cancel::new(), |e| {
            seen.push((e.attr(b"a1000"), e.attr(b"a1001")));
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, [(Some("1000".into()), None)]);
    }
}

#[cfg(test)]
mod progress_tests {
    use super::*;

    #[test]
    fn a_cancelled_walk_stops_within_the_work_between_checks() {
        let cancel = Cancel::new();
        cancel.cancel();
        let big = format!("<a>{}</a>", "x".repeat(1 << 20));
        let err = for_each_start(big.as_bytes(), "t.xml", &cancel, |_| Ok(())).err();
        assert!(err.is_some_and(|e| e.is_cancelled()));
        let mut progress = Progress::new(&cancel);
        assert!(progress.add(1).is_err());
    }
}
