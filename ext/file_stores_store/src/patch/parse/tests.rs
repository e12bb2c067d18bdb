use super::*;

fn ok(text: &str) -> Vec<FileOp> {
    parse(text).unwrap_or_else(|e| panic!("{text:?} did not parse: {e}"))
}

fn err(text: &str) -> ParseError {
    parse(text).expect_err("should not parse")
}

fn update(path: &str, hunks: Vec<Hunk>) -> FileOp {
    FileOp::Update {
        path: path.into(),
        move_to: None,
        hunks,
    }
}

fn hunk(headers: &[&str], lines: Vec<Line>) -> Hunk {
    Hunk {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        lines,
        end_of_file: false,
    }
}

fn c(t: &str) -> Line {
    Line::Context(t.into())
}
fn r(t: &str) -> Line {
    Line::Remove(t.into())
}
fn a(t: &str) -> Line {
    Line::Add(t.into())
}

#[test]
fn reads_every_kind_of_file() {
    let ops = ok("*** Begin Patch\n\
         *** Add File: nested/new.txt\n+one\n+two\n\
         *** Delete File: old.txt\n\
         *** Update File: a.rb\n*** Move to: b.rb\n@@ class A\n@@   def x\n-  1\n+  2\n  end\n\
         @@\n x\n+y\n*** End of File\n\
         *** End Patch\n");
    assert_eq!(ops.len(), 3);
    assert_eq!(
        ops[0],
        FileOp::Add {
            path: "nested/new.txt".into(),
            lines: vec!["one".into(), "two".into()]
        }
    );
    assert_eq!(ops[0].added_content().unwrap(), b"one\ntwo\n");
    assert_eq!(
        ops[1],
        FileOp::Delete {
            path: "old.txt".into()
        }
    );
    let FileOp::Update {
        path,
        move_to,
        hunks,
    } = &ops[2]
    else {
        panic!("{:?}", ops[2])
    };
    assert_eq!((path.as_str(), move_to.as_deref()), ("a.rb", Some("b.rb")));
    assert_eq!(
        hunks[0],
        hunk(&["class A", "def x"], vec![r("  1"), a("  2"), c(" end")])
    );
    assert_eq!(
        hunks[1],
        Hunk {
            end_of_file: true,
            ..hunk(&[], vec![c("x"), a("y")])
        }
    );
}

#[test]
fn tolerates_whitespace_around_markers_crlf_a_heredoc_and_a_final_empty_line() {
    let want = vec![update("f.txt", vec![hunk(&[], vec![r("a"), a("b")])])];
    assert_eq!(
        ok("  *** Begin Patch  \n  *** Update File: f.txt \n@@  \n-a\n+b\n *** End Patch \n\n"),
        want
    );
    assert_eq!(
        ok("*** Begin Patch\r\n*** Update File: f.txt\r\n@@\r\n-a\r\n+b\r\n*** End Patch\r\n"),
        want
    );
    assert_eq!(
        ok("<<'EOF'\n*** Begin Patch\n*** Update File: f.txt\n-a\n+b\n*** End Patch\nEOF\n"),
        want
    );
}

#[test]
fn blank_lines_between_hunks_are_skipped_and_inside_are_context() {
    let ops = ok("*** Begin Patch\n*** Update File: f\n@@\n a\n\n b\n+c\n\n@@\n-d\n*** End Patch");
    assert_eq!(
        ops,
        vec![update(
            "f",
            vec![
                hunk(&[], vec![c("a"), c(""), c("b"), a("c"), c("")]),
                hunk(&[], vec![r("d")])
            ]
        )]
    );
}

#[test]
fn refuses_what_is_not_a_patch() {
    assert_eq!(err("").line, 1);
    assert!(err("hello").message.contains("*** Begin Patch"));
    assert!(err("*** Begin Patch\n*** Add File: a\n+x\n")
        .message
        .contains("*** End Patch"));
    assert!(err("*** Begin Patch\n*** End Patch")
        .message
        .contains("changes no file"));
    let bad = err("*** Begin Patch\n*** Frobnicate File: a\n*** End Patch");
    assert_eq!(bad.line, 2);
    assert!(bad.message.contains("not a file header"), "{bad}");
    let empty = err("*** Begin Patch\n*** Update File: a\n*** End Patch");
    assert!(empty.message.contains("no hunks"), "{empty}");
    let stray = err("*** Begin Patch\n*** Update File: a\n@@\nnot a line\n*** End Patch");
    assert_eq!(stray.line, 4);
    let second = err("*** Begin Patch\n*** Update File: a\n-x\nbad\n*** End Patch");
    assert!(second.message.contains("@@"), "{second}");
    assert!(
        err("*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch")
            .message
            .contains("no lines")
    );
    assert!(err("*** Begin Patch\n*** Delete File:   \n*** End Patch")
        .message
        .contains("no path"));
}

#[test]
fn a_move_needs_no_hunks() {
    assert_eq!(
        ok("*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** End Patch"),
        vec![FileOp::Update {
            path: "a".into(),
            move_to: Some("b".into()),
            hunks: vec![]
        }]
    );
}

#[test]
fn caps_size_and_hunks() {
    let big = "x".repeat(MAX_PATCH_BYTES + 1);
    assert!(err(&big).message.contains("MB"));
    let mut many = String::from("*** Begin Patch\n*** Update File: a\n");
    for _ in 0..=MAX_HUNKS {
        many.push_str("@@\n-x\n");
    }
    many.push_str("*** End Patch\n");
    assert!(err(&many).message.contains("more than 1000 hunks"));
}
