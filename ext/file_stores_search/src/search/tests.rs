use super::*;
use file_stores_store::DirStore;
use std::os::unix::fs::symlink;

fn docs(list: &[(&str, Option<&str>)]) -> Vec<(String, Option<Vec<u8>>)> {
    list.iter()
        .map(|(p, t)| (p.to_string(), t.map(|t| t.as_bytes().to_vec())))
        .collect()
}

fn search(pattern: &str, opts: Options, list: &[(&str, Option<&str>)]) -> String {
    Search::new(pattern, opts)
        .unwrap()
        .texts(&docs(list), &Cancel::new())
        .unwrap()
        .text()
}

#[test]
fn finds_lines_in_path_order_ignoring_case() {
    let out = search(
        "term",
        Options::default(),
        &[("b.txt", Some("x\nTerm b\n")), ("a.md", Some("term a\n"))],
    );
    assert_eq!(out, "a.md:1:term a\nb.txt:2:Term b\n");
}

#[test]
fn context_and_breaks() {
    let text = "1\n2 hit\n3\n4\n5\n6\n7 hit\n8\n";
    let out = search(
        "hit",
        Options {
            context: 1,
            ..Options::default()
        },
        &[("f", Some(text))],
    );
    assert_eq!(
        out,
        "f-1-1\nf:2:2 hit\nf-3-3\n--\nf-6-6\nf:7:7 hit\nf-8-8\n"
    );
}

#[test]
fn files_only_and_skipped_notes() {
    let out = search(
        "x",
        Options {
            files_only: true,
            ..Options::default()
        },
        &[("a", Some("x\nx\n")), ("b.pdf", None), ("c", Some("y"))],
    );
    assert_eq!(
        out,
        "a\nSkipped 1 file with no extracted text: b.pdf. Read them with read_file first.\n"
    );
}

#[test]
fn caps_matches_and_says_so() {
    let text = "m\n".repeat(150);
    let out = search("m", Options::default(), &[("f", Some(&text))]);
    assert_eq!(out.lines().filter(|l| l.starts_with("f:")).count(), 100);
    assert!(
        out.ends_with(
            "there are more. Narrow the search with path or glob, or a more specific pattern.]\n"
        ),
        "{out}"
    );
    let exact = "m\n".repeat(100);
    let out = search("m", Options::default(), &[("f", Some(&exact))]);
    assert!(!out.contains("Stopped"), "exactly 100 is not 'more'");
}

#[test]
fn caps_characters_including_notes() {
    let line = format!("{}\n", "word ".repeat(90));
    let text = line.repeat(300);
    let many: Vec<(String, Option<&str>)> = (0..30).map(|i| (format!("0f{i:02}"), None)).collect();
    let mut list: Vec<(&str, Option<&str>)> = vec![("a", Some(&text))];
    list.extend(many.iter().map(|(p, t)| (p.as_str(), *t)));
    let out = search(
        "word",
        Options {
            max_matches: None,
            ..Options::default()
        },
        &list,
    );
    assert!(out.len() <= 20_000, "{}", out.len());
    assert!(out.contains("[Stopped at 20000 characters"));
    assert!(out.contains("Skipped 30 files"));
}

#[test]
fn a_cap_reached_within_a_file_keeps_the_lines_before_it() {
    // Whole files are added at once while they fit; the file that reaches a
    // cap is added line by line up to it.
    let list = [
        ("a", Some("x 1\nx 2\nx 3\n")),
        ("b", Some("x 4\ny\nx 5\nx 6\n")),
        ("c", Some("x 7\n")),
    ];
    let narrow = "Narrow the search with path or glob, or a more specific pattern.]\n";
    let capped = Options {
        max_matches: Some(5),
        ..Options::default()
    };
    assert_eq!(
        search("x", capped, &list),
        format!("a:1:x 1\na:2:x 2\na:3:x 3\nb:1:x 4\nb:3:x 5\n[Stopped after 5 matching lines; there are more. {narrow}")
    );
    let max_chars = NOTE_ROOM + 35; // a's lines, "--", b's first line
    let short = Options {
        context: 1,
        max_matches: None,
        max_chars: Some(max_chars),
        ..Options::default()
    };
    assert_eq!(
        search("x", short, &list),
        format!("a:1:x 1\na:2:x 2\na:3:x 3\n--\nb:1:x 4\n[Stopped at {max_chars} characters; there are more matches. {narrow}")
    );
}

#[test]
fn long_lines_are_cut_around_the_match() {
    let text = format!("{}needle{}\n", "a".repeat(3000), "b".repeat(3000));
    let out = search("needle", Options::default(), &[("f", Some(&text))]);
    assert!(out.starts_with("f:1:[...]"), "{}", &out[..40]);
    assert!(out.contains("needle") && out.trim_end().ends_with("[...]"));
    assert!(out.len() < 600);
}

#[test]
fn explains_patterns_it_cannot_use() {
    let err = compile("(?=x)", false).unwrap_err();
    assert!(err.contains("Look-ahead and look-behind"), "{err}");
    let err = compile("(a)\\1", false).unwrap_err();
    assert!(err.contains("Back-references"), "{err}");
    let err = compile("\\h+", false).unwrap_err();
    assert!(err.contains("[0-9a-fA-F]"), "{err}");
    let err = compile("(", false).unwrap_err();
    assert!(err.contains("Escape special characters"), "{err}");
    let err = compile("a{1000}{1000}{1000}", false).unwrap_err();
    assert!(err.contains("too large"), "{err}");
    assert!(compile("(?<name>x)", false).is_ok());
}

#[test]
fn pathological_patterns_run_in_linear_time() {
    let matching = format!("{}\n", "a".repeat(100_000));
    let failing = format!("{}b\n", "a".repeat(100_000));
    let started = Instant::now();
    let out = search(
        "(a+)+$",
        Options::default(),
        &[("f", Some(&matching)), ("g", Some(&failing))],
    );
    assert!(
        out.starts_with("f:1:") && !out.contains("g:1:"),
        "{}",
        &out[..20]
    );
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn utf16_with_a_bom_and_invalid_utf8() {
    let mut wide = vec![0xff, 0xfe];
    for unit in "hello wide\n".encode_utf16() {
        wide.extend_from_slice(&unit.to_le_bytes());
    }
    let docs = vec![
        ("w".to_string(), Some(wide)),
        ("bad".to_string(), Some(b"ok \xff hello\n".to_vec())),
    ];
    let out = Search::new("hello", Options::default())
        .unwrap()
        .texts(&docs, &Cancel::new())
        .unwrap()
        .text();
    assert_eq!(out, "bad:1:ok \u{fffd} hello\nw:1:hello wide\n");
}

#[test]
fn a_cancelled_search_stops() {
    let cancel = Cancel::new();
    cancel.cancel();
    let err = Search::new("x", Options::default())
        .unwrap()
        .texts(&docs(&[("a", Some("x"))]), &cancel);
    assert!(err.unwrap_err().is_cancelled());
}

#[test]
fn a_past_deadline_stops_with_a_note() {
    let opts = Options {
        deadline: Some(Instant::now()),
        ..Options::default()
    };
    let out = search("x", opts, &[("a", Some("x"))]);
    assert!(out.contains("ran out of time"), "{out}");
}

#[test]
fn folder_search_walks_in_path_order_skipping_hidden_links_and_binaries() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("store");
    let store = DirStore::open(&root, None).unwrap();
    let c = Cancel::new();
    store.write("a.txt", b"hit a\n", 1, &c).unwrap();
    store.write("a/b.txt", b"hit ab\n", 1, &c).unwrap();
    store.write("a-b.txt", b"hit a-b\n", 1, &c).unwrap();
    store.write("bin.dat", b"\0\0hit\n", 1, &c).unwrap();
    store.write("doc.pdf", b"%PDF hit\n", 1, &c).unwrap();
    store.write("scan.png", b"\x89PNG hit\n", 1, &c).unwrap();
    std::fs::write(root.join(".hidden"), b"hit hidden\n").unwrap();
    let outside = tmp.path().join("outside.txt");
    std::fs::write(&outside, b"hit outside\n").unwrap();
    symlink(&outside, root.join("link.txt")).unwrap();
    let search = Search::new("hit", Options::default()).unwrap();
    let mut texts = HashMap::new();
    texts.insert("doc.pdf".to_string(), b"extracted hit\n".to_vec());
    let root_fd = &store.root_fd();
    let out = search.folder(root_fd, "", None, &texts, &c).unwrap().text();
    assert_eq!(
        out,
        "a-b.txt:1:hit a-b\na.txt:1:hit a\na/b.txt:1:hit ab\ndoc.pdf:1:extracted hit\n\
         Skipped 1 file with no extracted text: scan.png. Read them with read_file first.\n\
         Skipped 1 binary file: bin.dat. It has no text to search.\n"
    );
    let needing = Search::files_needing_text(root_fd, "", None, &c).unwrap();
    assert_eq!(needing, ["doc.pdf", "scan.png"]);
    let glob = PathGlob::new("a/*.txt", "").unwrap();
    assert_eq!(
        search
            .folder(root_fd, "", Some(&glob), &texts, &c)
            .unwrap()
            .text(),
        "a/b.txt:1:hit ab\n"
    );
    assert!(search.folder(root_fd, "missing", None, &texts, &c).is_err());
}

#[test]
fn files_on_disk_search_like_the_same_texts_small_or_large() {
    // Small files are read whole and searched as slices; files of
    // WHOLE_FILE_LIMIT bytes or more in buffers. Both give what searching
    // the same bytes as texts gives.
    let mut wide = vec![0xfe, 0xff];
    for unit in "a wide hit\nno\nhit again\n".encode_utf16() {
        wide.extend_from_slice(&unit.to_be_bytes());
    }
    let filler = "filler line without it\n".repeat(WHOLE_FILE_LIMIT / 20);
    let large = format!("hit first\n{filler}crlf hit\r\n{filler}last hit");
    // UTF-32 with a BOM: text, as read_file reads it, small and large.
    let utf32 = |text: &str, big_endian: bool| -> Vec<u8> {
        let mark: &[u8] = if big_endian {
            b"\0\0\xfe\xff"
        } else {
            b"\xff\xfe\0\0"
        };
        let units = text.chars().flat_map(|c| {
            let code = u32::from(c);
            if big_endian {
                code.to_be_bytes()
            } else {
                code.to_le_bytes()
            }
        });
        mark.iter().copied().chain(units).collect()
    };
    let wide32 = utf32("a wide32 hit\n", true);
    let large32 = utf32(&format!("{filler}a large wide32 hit\n"), false);
    let late_nul = format!("{filler}hit\n{filler}\0hit\n");
    // Read whole from disk, yet its NUL is past what a slice is sniffed for.
    let mid_nul = format!("hit\n{}\0\n", "x".repeat(SNIFFED + 100));
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("a.txt", b"one hit\ntwo\r\nthree hit".to_vec()),
        ("b.txt", b"\xef\xbb\xbfbom hit\n".to_vec()),
        ("c.txt", b"bad \xff hit\n".to_vec()),
        ("d.txt", Vec::new()),
        ("e.txt", b"x\0 hit\n".to_vec()),
        ("large.log", large.into_bytes()),
        ("late-nul.log", late_nul.into_bytes()),
        ("mid-nul.log", mid_nul.into_bytes()),
        ("wide.txt", wide),
        ("wide32.txt", wide32),
        ("wide32-large.txt", large32),
    ];
    let tmp = tempfile::tempdir().unwrap();
    let store = DirStore::open(tmp.path(), None).unwrap();
    let c = Cancel::new();
    for (path, bytes) in &files {
        store.write(path, bytes, 1, &c).unwrap();
    }
    let docs: Vec<(String, Option<Vec<u8>>)> = files
        .iter()
        .map(|(p, b)| (p.to_string(), Some(b.clone())))
        .collect();
    for opts in [
        Options::default(),
        Options {
            context: 1,
            max_matches: None,
            max_chars: None,
            ..Options::default()
        },
        Options {
            files_only: true,
            ..Options::default()
        },
    ] {
        let files_only = opts.files_only;
        let search = Search::new("hit", opts).unwrap();
        let on_disk = search
            .folder(&store.root_fd(), "", None, &HashMap::new(), &c)
            .unwrap()
            .text();
        assert_eq!(on_disk, search.texts(&docs, &c).unwrap().text());
        for found in [
            "b.txt",
            "large.log",
            "wide.txt",
            "wide32.txt",
            "wide32-large.txt",
        ] {
            assert!(on_disk.lines().any(|l| l.starts_with(found)), "{on_disk}");
        }
        if !files_only {
            assert!(on_disk.contains("b.txt:1:bom hit\n"), "{on_disk}");
            assert!(on_disk.contains("wide32.txt:1:a wide32 hit\n"), "{on_disk}");
        }
        // Listing files stops at a file's first match, before a late NUL.
        let binary = if files_only {
            "Skipped 1 binary file: e.txt."
        } else {
            "Skipped 3 binary files: e.txt, late-nul.log, mid-nul.log."
        };
        assert!(on_disk.contains(binary), "{on_disk}");
    }
}

#[test]
fn feeding_in_parts_gives_the_same_output_and_stops_early() {
    let all: Vec<(String, Option<Vec<u8>>)> = (0..300)
        .map(|i| {
            (
                format!("f{i:03}"),
                Some(format!("hit {i}\nmiss\n").into_bytes()),
            )
        })
        .collect();
    let search = Search::new(
        "hit",
        Options {
            context: 1,
            ..Options::default()
        },
    )
    .unwrap();
    let whole = search.texts(&all, &Cancel::new()).unwrap().text();
    let mut report = search.report();
    let mut parts_fed = 0;
    for part in all.chunks(7) {
        parts_fed += 1;
        if !search.feed(&mut report, part, &Cancel::new()).unwrap() {
            break;
        }
    }
    assert_eq!(report.finish().text(), whole);
    assert!(
        parts_fed < 20,
        "stopped once capped, after {parts_fed} parts"
    );
}

#[test]
fn names_files_whose_names_are_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("store");
    let store = DirStore::open(&root, None).unwrap();
    std::fs::write(
        root.join(std::ffi::OsStr::from_bytes(b"odd\xff.txt")),
        b"needle\n",
    )
    .unwrap();
    let out = Search::new("needle", Options::default())
        .unwrap()
        .folder(&store.root_fd(), "", None, &HashMap::new(), &Cancel::new())
        .unwrap()
        .text();
    assert_eq!(
        out,
        "No matches.\nSkipped 1 file or folder whose name is not UTF-8, or holds a control character or a backslash: odd\\xff.txt. Rename it to search it.\n"
    );
}

#[test]
fn a_folder_search_past_its_deadline_says_so_even_before_any_file() {
    let tmp = tempfile::tempdir().unwrap();
    let store = DirStore::open(tmp.path(), None).unwrap();
    let c = Cancel::new();
    for i in 0..50 {
        store
            .write(&format!("d{i:02}/a.txt"), b"x\n", 1, &c)
            .unwrap();
    }
    let opts = Options {
        deadline: Some(Instant::now()),
        ..Options::default()
    };
    let search = Search::new("x", opts).unwrap();
    let out = search
        .folder(&store.root_fd(), "", None, &HashMap::new(), &c)
        .unwrap()
        .text();
    assert!(out.contains("ran out of time after 0 files"), "{out}");
}

#[test]
fn closing_notes_list_whole_names_then_how_many_more() {
    // Matches fill the character budget; forty binary files with long names
    // are left for the notes. Every name shown is whole, the rest are
    // counted, and the stop note stays.
    let line = "word ".repeat(40) + "\n";
    let text = line.repeat(300);
    let names: Vec<String> = (0..40)
        .map(|i| format!("budget/binary-file-with-a-long-name-to-fill-the-note-{i:02}.dat"))
        .collect();
    let mut list: Vec<(&str, Option<&str>)> = vec![("z", Some(&text))];
    list.extend(names.iter().map(|n| (n.as_str(), Some("bin\0ary"))));
    let out = search(
        "word",
        Options {
            max_matches: None,
            ..Options::default()
        },
        &list,
    );
    assert!(out.len() <= 20_000, "{}", out.len());
    assert!(out.contains("[Stopped at 20000 characters"), "{out}");
    let note = out
        .lines()
        .find(|l| l.starts_with("Skipped 40 binary files: "))
        .unwrap_or_else(|| panic!("no binary note in {out}"));
    let listed = note
        .trim_start_matches("Skipped 40 binary files: ")
        .trim_end_matches(". They have no text to search.");
    let (shown, more) = listed.rsplit_once(", and ").expect("a count of the rest");
    let shown: Vec<&str> = shown.split(", ").collect();
    assert!(!shown.is_empty());
    for name in &shown {
        assert!(
            names.iter().any(|n| n == name),
            "cut name {name:?} in {note}"
        );
    }
    assert_eq!(more, format!("{} more", 40 - shown.len()));
}

#[test]
fn a_note_with_no_room_for_a_name_counts_them_all() {
    let names: Vec<String> = (0..3)
        .map(|i| format!("{}{i}.dat", "n".repeat(700)))
        .collect();
    let list: Vec<(&str, Option<&str>)> = names.iter().map(|n| (n.as_str(), Some("\0"))).collect();
    let out = search(
        "word",
        Options {
            max_chars: Some(NOTE_ROOM),
            ..Options::default()
        },
        &list,
    );
    assert_eq!(
        out,
        "No matches.\nSkipped 3 binary files: 3 not named here. They have no text to search.\n"
    );
}

#[test]
fn text_named_as_a_binary_format_is_searched_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("store");
    let store = DirStore::open(&root, None).unwrap();
    let c = Cancel::new();
    // Plain text named .doc, as arch/m68k/ifpsp060/fplsp.doc in Linux.
    store.write("fplsp.doc", b"FPSP hit\n", 1, &c).unwrap();
    let mut big = b"%PDF-1.7\n".to_vec();
    big.resize(2 << 20, b'x');
    big.extend_from_slice(b"\nhit\n");
    store.write("real.pdf", &big, 1, &c).unwrap();
    let mut long = vec![b'y'; 2 << 20];
    long.extend_from_slice(b"\nhit at the end\n");
    store.write("long.xlsx", &long, 1, &c).unwrap();
    store.write("zip.docx", b"PK\x03\x04hit\n", 1, &c).unwrap();
    let search = Search::new("hit", Options::default()).unwrap();
    let out = search
        .folder(&store.root_fd(), "", None, &HashMap::new(), &c)
        .unwrap()
        .text();
    assert_eq!(
        out,
        "fplsp.doc:1:FPSP hit\nlong.xlsx:2:hit at the end\n\
         Skipped 2 files with no extracted text: real.pdf, zip.docx. Read them with read_file first.\n"
    );
}

#[test]
fn a_pattern_over_the_cap_is_refused_before_it_is_compiled() {
    let err = Search::new(&"a".repeat(MAX_PATTERN_BYTES + 1), Options::default())
        .err()
        .unwrap();
    assert!(err.contains("over the limit of 16384"), "{err}");
    assert!(Search::new(&"a".repeat(MAX_PATTERN_BYTES), Options::default()).is_ok());
}

/// Makes `levels` nested folders named `d` below `root`, step by step
/// (relative to the last), so the tree can be deeper than any one path
/// the system takes; puts `name` with `body` in the deepest.
pub(crate) fn deep_tree(root: &std::path::Path, levels: usize, name: &str, body: &[u8]) {
    use rustix::fs::{mkdirat, openat, Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let mut dir = rustix::fs::open(root, flags, Mode::empty()).unwrap();
    for _ in 0..levels {
        mkdirat(&dir, "d", Mode::from_bits_truncate(0o755)).unwrap();
        dir = openat(&dir, "d", flags, Mode::empty()).unwrap();
    }
    let fd = openat(
        &dir,
        name,
        OFlags::WRONLY | OFlags::CREATE | OFlags::CLOEXEC,
        Mode::from_bits_truncate(0o644),
    )
    .unwrap();
    rustix::io::write(&fd, body).unwrap();
}

#[test]
fn a_tree_deeper_than_a_path_reaches_is_searched_to_the_cap_and_named() {
    let tmp = tempfile::tempdir().unwrap();
    let store = DirStore::open(tmp.path(), None).unwrap();
    deep_tree(tmp.path(), 3000, "deep.txt", b"needle\n");
    std::fs::write(tmp.path().join("top.txt"), b"needle\n").unwrap();
    let out = Search::new("needle", Options::default())
        .unwrap()
        .folder(&store.root_fd(), "", None, &HashMap::new(), &Cancel::new())
        .unwrap()
        .text();
    assert!(out.starts_with("top.txt:1:needle\n"), "{out}");
    assert!(
        out.contains("Skipped 1 folder deeper than a store path reaches"),
        "{out}"
    );
    let needing = Search::files_needing_text(&store.root_fd(), "", None, &Cancel::new()).unwrap();
    assert!(needing.is_empty());
}

#[test]
fn a_line_longer_than_the_heap_limit_is_named_as_such() {
    let tmp = tempfile::tempdir().unwrap();
    let store = DirStore::open(tmp.path(), None).unwrap();
    let mut long = vec![b'a'; HEAP_LIMIT + 1];
    long.extend_from_slice(b"needle\n");
    std::fs::write(tmp.path().join("long.txt"), &long).unwrap();
    drop(long);
    let out = Search::new("needle", Options::default())
        .unwrap()
        .folder(&store.root_fd(), "", None, &HashMap::new(), &Cancel::new())
        .unwrap()
        .text();
    let why = format!("it has a line longer than {} MB", HEAP_LIMIT >> 20);
    assert!(out.contains(&why), "{out}");
}

#[test]
fn tells_a_refused_pattern_by_its_error_kind() {
    let kind = |p: &str| {
        let err = RegexMatcherBuilder::new()
            .line_terminator(Some(b'\n'))
            .size_limit(REGEX_SIZE_LIMIT)
            .build(p)
            .unwrap_err();
        refusal(p, false, &err)
    };
    assert_eq!(kind("a(?<=b)"), Refusal::LookAround);
    assert_eq!(kind("(a)\\2"), Refusal::Backreference);
    assert_eq!(kind("\\Z"), Refusal::UnknownEscape);
    assert_eq!(kind("a\nb"), Refusal::LineBreak);
    assert_eq!(kind("\\w{1000}{1000}"), Refusal::TooLarge);
    assert_eq!(kind("a)"), Refusal::Other);
}

/// A file handed in open (a download the caller did not hold) is searched
/// from its start whatever its offset, in buffers, as a file on disk is:
/// lines across buffer boundaries, UTF-16 with a BOM, binary skipped.
#[test]
fn searches_open_files_from_their_start() {
    use std::io::{Seek, SeekFrom, Write};
    let open = |bytes: &[u8]| {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(bytes).unwrap();
        file.seek(SeekFrom::End(0)).unwrap();
        file
    };
    let mut big = "lorem ipsum\n".repeat(200_000).into_bytes();
    big.extend_from_slice(b"the needle at the end\n");
    let utf16: Vec<u8> = b"\xff\xfe"
        .iter()
        .copied()
        .chain("a needle\n".encode_utf16().flat_map(|u| u.to_le_bytes()))
        .collect();
    let mut binary = b"needle\0".to_vec();
    binary.extend(std::iter::repeat_n(b'x', 200_000));
    let docs: Vec<(String, Content<Vec<u8>>)> = vec![
        ("c.bin".into(), Content::File(open(&binary))),
        ("b.txt".into(), Content::File(open(&utf16))),
        ("a.log".into(), Content::File(open(&big))),
        ("d.md".into(), Content::Text(b"needle in a text\n".to_vec())),
        ("e.pdf".into(), Content::NoText),
    ];
    let search = Search::new("needle", Options::default()).unwrap();
    let mut report = search.report();
    let more = search
        .feed_contents_from(&mut report, &docs, &Cancel::new(), &mut 0)
        .unwrap();
    assert!(more);
    let out = report.finish().text();
    assert!(
        out.starts_with(
            "a.log:200001:the needle at the end\nb.txt:1:a needle\nd.md:1:needle in a text\n"
        ),
        "{out}"
    );
    assert!(out.contains("c.bin") && out.contains("e.pdf"), "{out}");
    assert!(!out.contains("c.bin:1"), "{out}");
}

/// What `list` (path, text) gives when searched as one store.
fn found(pattern: &str, opts: &Options, list: &[(&str, Option<&str>)]) -> Found {
    Search::new(pattern, opts.clone())
        .unwrap()
        .texts(&docs(list), &Cancel::new())
        .unwrap()
}

#[test]
fn a_merge_of_stores_shows_what_one_store_with_their_files_shows() {
    let chat = [
        ("a.md", Some("hit a\nplain\nhit a2\n")),
        ("m/hidden.md", Some("hit hidden\n")),
        ("m/gone.bin", Some("hit\0")),
        ("z.md", Some("hit z\n")),
    ];
    let mounted = [
        ("b.md", Some("hit b\nplain\nplain\nplain\nhit b2\n")),
        ("c:1:d.md", Some("hit with a line number in the name\n")),
        ("e, f.txt", Some("hit\0binary")),
        ("scan.pdf", None),
    ];
    let flat = [
        ("a.md", Some("hit a\nplain\nhit a2\n")),
        ("m/b.md", Some("hit b\nplain\nplain\nplain\nhit b2\n")),
        ("m/c:1:d.md", Some("hit with a line number in the name\n")),
        ("m/e, f.txt", Some("hit\0binary")),
        ("m/scan.pdf", None),
        ("z.md", Some("hit z\n")),
    ];
    let hidden = ["m".to_string()];
    for opts in [
        Options::default(),
        Options {
            context: 1,
            ..Options::default()
        },
        Options {
            files_only: true,
            ..Options::default()
        },
        // Capped at the last file: a store names what it skipped even
        // past the place the merged search stops, as each store searched it.
        Options {
            max_matches: Some(5),
            ..Options::default()
        },
        Options {
            max_chars: Some(810),
            ..Options::default()
        },
    ] {
        let (chat, mounted) = (found("hit", &opts, &chat), found("hit", &opts, &mounted));
        let parts = [
            Part {
                prefix: "",
                found: Some(&chat),
                hidden: &hidden,
            },
            Part {
                prefix: "m/",
                found: Some(&mounted),
                hidden: &[],
            },
        ];
        let merged = Found::merge(opts.clone(), &parts).text();
        assert_eq!(merged, found("hit", &opts, &flat).text(), "{opts:?}");
    }
}

#[test]
fn a_merge_stops_where_a_store_was_left_unsearched() {
    let opts = Options::default();
    let chat = found(
        "hit",
        &opts,
        &[("a.md", Some("hit a\n")), ("z.md", Some("hit z\n"))],
    );
    let parts = [
        Part {
            prefix: "",
            found: Some(&chat),
            hidden: &[],
        },
        Part {
            prefix: "m/",
            found: None,
            hidden: &[],
        },
    ];
    assert_eq!(
        Found::merge(opts, &parts).text(),
        "a.md:1:hit a\n[Stopped: the search ran out of time after 2 files, up to a.md. \
         Narrow the search with path or glob, or a more specific pattern.]\n"
    );
}
