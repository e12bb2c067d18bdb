use super::*;
use crate::patch::parse::parse;
use crate::patch::FileOp;

fn hunks_of(patch_body: &str) -> Vec<Hunk> {
    let text = format!("*** Begin Patch\n*** Update File: f\n{patch_body}*** End Patch\n");
    match parse(&text).unwrap().remove(0) {
        FileOp::Update { hunks, .. } => hunks,
        other => panic!("{other:?}"),
    }
}

fn run(content: &[u8], body: &str) -> std::result::Result<Vec<u8>, HunkError> {
    apply(content, &hunks_of(body), usize::MAX, None, &Cancel::new()).unwrap()
}

fn done(content: &str, body: &str) -> String {
    String::from_utf8(run(content.as_bytes(), body).unwrap()).unwrap()
}

#[test]
fn applies_hunks_in_order() {
    // Codex's 003_multiple_chunks, in spirit.
    assert_eq!(
        done(
            "line1\nline2\nline3\nline4\n",
            "@@\n line1\n-line2\n+changed2\n@@\n line3\n-line4\n+changed4\n"
        ),
        "line1\nchanged2\nline3\nchanged4\n"
    );
}

#[test]
fn headers_narrow_the_place() {
    let file = "class A\n  def x\n    1\n  end\nend\nclass B\n  def x\n    1\n  end\nend\n";
    assert_eq!(
        done(file, "@@ class B\n@@ def x\n-    1\n+    2\n"),
        "class A\n  def x\n    1\n  end\nend\nclass B\n  def x\n    2\n  end\nend\n"
    );
    assert_eq!(
        run(file.as_bytes(), "@@ class C\n-    1\n"),
        Err(HunkError::HeaderMissing {
            hunk: 0,
            header: "class C".into(),
            from: 1
        })
    );
}

#[test]
fn refuses_a_hunk_found_in_two_places() {
    let file = "a\nend\nb\nend\n";
    assert_eq!(
        run(file.as_bytes(), "@@\n-end\n+fin\n"),
        Err(HunkError::Ambiguous {
            hunk: 0,
            lines: vec![2, 4],
            count: 2
        })
    );
    // Context makes it one place.
    assert_eq!(done(file, "@@\n b\n-end\n+fin\n"), "a\nend\nb\nfin\n");
}

#[test]
fn later_hunks_search_after_earlier_ones() {
    let file = "x\ny\nx\ny\n";
    assert_eq!(done(file, "@@\n-x\n y\n x\n+z\n"), "y\nx\nz\ny\n");
    assert_eq!(
        run(b"one\ntwo\n", "@@\n-two\n+2\n@@\n-one\n+1\n"),
        Err(HunkError::LinesMissing {
            hunk: 1,
            first: "one".into(),
            from: 3,
            end_of_file: false
        })
    );
}

#[test]
fn context_lines_stay_as_the_file_has_them() {
    assert_eq!(
        done("say “hi” now  \nold\n", "@@\n say \"hi\" now\n-old\n+new\n"),
        "say “hi” now  \nnew\n"
    );
}

#[test]
fn keeps_crlf_and_a_missing_final_newline() {
    assert_eq!(
        run(b"a\r\nb\r\nc", "@@\n a\n-b\n+B\n+B2\n").unwrap(),
        b"a\r\nB\r\nB2\r\nc"
    );
    // Codex's 014 adds a final newline; this keeps its lack.
    assert_eq!(done("a\nb", "@@\n a\n-b\n+c\n"), "a\nc");
    assert_eq!(done("a\nb", "@@\n b\n+c\n*** End of File\n"), "a\nb\nc");
    assert_eq!(done("a\nb\n", "@@\n-b\n"), "a\n");
    assert_eq!(done("a\nb", "@@\n-b\n"), "a");
}

#[test]
fn pure_additions_go_after_the_header_or_at_the_end() {
    assert_eq!(done("a\nb\n", "@@\n+c\n"), "a\nb\nc\n");
    assert_eq!(
        done("def x\nend\n", "@@ def x\n+  1\n"),
        "def x\n  1\nend\n"
    );
    assert_eq!(done("", "@@\n+first\n"), "first\n");
}

#[test]
fn end_of_file_anchors_at_the_end() {
    let file = "end\nmiddle\nend\n";
    assert_eq!(
        done(file, "@@\n-end\n+fin\n*** End of File\n"),
        "end\nmiddle\nfin\n"
    );
}

#[test]
fn a_trailing_empty_line_the_file_lacks_is_dropped() {
    assert_eq!(done("a\nb\n", "@@\n a\n-b\n+c\n\n"), "a\nc\n");
}

#[test]
fn invalid_utf8_matches_as_the_replacement_character_and_is_kept_in_context() {
    let out = run(b"bad \xFF\nold\n", "@@\n bad \u{FFFD}\n-old\n+new\n").unwrap();
    assert_eq!(out, b"bad \xFF\nnew\n");
}

#[test]
fn refuses_a_result_over_the_cap_before_making_it() {
    let hunks = hunks_of("@@\n+0123456789\n");
    let out = apply(b"a\n", &hunks, 8, None, &Cancel::new()).unwrap();
    assert!(matches!(out, Err(HunkError::TooLarge { .. })), "{out:?}");
}

#[test]
fn stops_when_cancelled() {
    let cancel = Cancel::new();
    cancel.cancel();
    assert!(
        apply(b"a\n", &hunks_of("@@\n-a\n"), usize::MAX, None, &cancel)
            .unwrap_err()
            .is_cancelled()
    );
}

#[test]
fn stops_at_the_deadline_naming_the_hunk() {
    let hunks = hunks_of("@@\n-a\n+b\n");
    let past = Some(std::time::Instant::now());
    let out = apply(b"a\n", &hunks, usize::MAX, past, &Cancel::new()).unwrap();
    assert_eq!(out, Err(HunkError::OutOfTime { hunk: 0 }));
}

#[test]
fn later_hunks_match_leniently_below_the_one_before() {
    // Both hunks match only at the spaces level; the second is looked for
    // below the first, so the first "  x" is not a second place for it.
    let file = "  x\ny\n  x\nz\n";
    assert_eq!(done(file, "@@\n-x\n+1\n y\n@@\n-x\n+2\n"), "1\ny\n2\nz\n");
}

#[test]
fn invalid_bytes_before_a_change_keep_their_offsets() {
    // U+FFFD takes 3 bytes in the decoded text for each 1-byte invalid
    // sequence: the change must land at the content's own offsets.
    let out = run(
        b"\xFF\xFE\xFD\r\nold\r\nkeep",
        "@@\n \u{FFFD}\u{FFFD}\u{FFFD}\n-old\n+new\n",
    )
    .unwrap();
    assert_eq!(out, b"\xFF\xFE\xFD\r\nnew\r\nkeep");
}
