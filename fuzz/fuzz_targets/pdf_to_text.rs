//! Fuzzes `file_stores_pdf::to_text`: the bounded loading around lopdf's
//! parser (xref tables, object streams, encryption), our content-stream
//! tokenizer and interpreter, stream filters and font readers (embedded
//! fonts through ttf-parser, CMaps).
//!
//! Limits are small so huge streams and long content hit them quickly.
//! Beyond "no panic" (a panic the binding's guard would catch still aborts
//! here), a success has a `## Page 1` heading and stays within the text
//! limit.
#![no_main]

use file_stores_pdf::{to_text, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_stream_bytes: 1 << 20,
        max_operations: 200_000,
        max_tokens: 1_000_000,
        max_parsed_tokens: 1 << 20,
        max_text_bytes: 1 << 20,
        max_decoded_bytes: 8 << 20,
        ..Limits::default()
    };
    if let Ok(Some(text)) = to_text(data, limits, &|| false) {
        assert!(text.starts_with("## Page 1\n\n"));
        let pages = text.matches("## Page ").count();
        assert!(text.len() <= limits.max_text_bytes + pages * 32);
    }
});
