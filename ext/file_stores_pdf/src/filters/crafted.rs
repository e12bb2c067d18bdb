//! Content streams through every standard filter and chains of them, with
//! predictors, as written by encoders of our own ([`crate::testpdf::encode`]).

use crate::testpdf::encode::{ascii85, ascii_hex, lzw, png_predicted, run_length, tiff_predicted};
use crate::testpdf::{deflate, page_content, serialize, text, HELVETICA};

/// Forty lines of words that do not repeat much, so LZW's codes pass 511
/// and change width, and PNG rows cover every filter type.
fn long_text() -> String {
    (1..=40)
        .map(|i| {
            format!(
                "Line {i} of the agreement, clause {} section {}.",
                i * 7,
                (i * 13) % 97
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A predictor's parameters: (Predictor, Columns, EarlyChange).
type Parms = Option<(u32, usize, Option<u32>)>;

fn encode(filter: &str, data: &[u8], parms: Parms) -> Vec<u8> {
    let predicted = |data: &[u8]| match parms {
        Some((2, columns, _)) => tiff_predicted(data, columns),
        Some((p, columns, _)) if p >= 10 => png_predicted(data, columns),
        _ => data.to_vec(),
    };
    match filter {
        "FlateDecode" => deflate(&predicted(data)),
        "LZWDecode" => lzw(&predicted(data), !matches!(parms, Some((_, _, Some(0))))),
        "ASCII85Decode" => ascii85(data),
        "ASCIIHexDecode" => ascii_hex(data),
        "RunLengthDecode" => run_length(data),
        other => panic!("no encoder for {other}"),
    }
}

fn dictionary(parms: Parms) -> String {
    match parms {
        None => "null".into(),
        Some((predictor, columns, early)) => {
            let early = early.map_or(String::new(), |e| format!(" /EarlyChange {e}"));
            let predictor = if predictor == 1 {
                String::new()
            } else {
                format!("/Predictor {predictor} /Columns {columns}")
            };
            format!("<< {predictor}{early} >>")
        }
    }
}

/// One page whose content stream goes through `filters` (applied last
/// first, so the reader undoes them in the order written) with `parms`
/// for each; the /Filter and /Length direct or, with `indirect`,
/// references to objects 6 and 7.
fn filtered_pdf(text: &str, filters: &[&str], parms: &[Parms], indirect: bool) -> Vec<u8> {
    let mut data = page_content(text).into_bytes();
    for (i, filter) in filters.iter().enumerate().rev() {
        data = encode(filter, &data, parms.get(i).copied().flatten());
    }
    let names: Vec<String> = filters.iter().map(|f| format!("/{f}")).collect();
    let names = format!("[{}]", names.join(" "));
    let mut keys = if indirect {
        "/Filter 6 0 R /Length 7 0 R".to_owned()
    } else {
        format!("/Filter {names} /Length {}", data.len())
    };
    if parms.iter().any(Option::is_some) {
        let each: Vec<String> = parms.iter().map(|p| dictionary(*p)).collect();
        keys.push_str(&format!(" /DecodeParms [{}]", each.join(" ")));
    }
    let mut content = format!("<< {keys} >>\nstream\n").into_bytes();
    content.extend(&data);
    content.extend(b"\nendstream");
    let mut objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>".to_vec(),
        HELVETICA.into(),
        content,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
          /Resources << /Font << /F1 3 0 R >> >> >>"
            .to_vec(),
    ];
    if indirect {
        objects.push(names.into_bytes());
        objects.push(data.len().to_string().into_bytes());
    }
    serialize(&objects)
}

#[test]
fn reads_content_streams_through_the_standard_filters_and_chains_of_them() {
    let png = |columns| Some((15, columns, None));
    let cases: [(&str, &[&str], &[Parms]); 13] = [
        ("flate", &["FlateDecode"], &[]),
        ("flate_png", &["FlateDecode"], &[png(24)]),
        ("flate_tiff", &["FlateDecode"], &[Some((2, 24, None))]),
        ("lzw_early_1", &["LZWDecode"], &[]),
        ("lzw_early_0", &["LZWDecode"], &[Some((1, 0, Some(0)))]),
        ("lzw_png", &["LZWDecode"], &[Some((12, 31, None))]),
        ("ascii85", &["ASCII85Decode"], &[]),
        ("ascii_hex", &["ASCIIHexDecode"], &[]),
        ("run_length", &["RunLengthDecode"], &[]),
        ("hex_flate", &["ASCIIHexDecode", "FlateDecode"], &[]),
        ("a85_lzw", &["ASCII85Decode", "LZWDecode"], &[]),
        (
            "a85_flate_png",
            &["ASCII85Decode", "FlateDecode"],
            &[None, png(10)],
        ),
        (
            "run_length_hex",
            &["RunLengthDecode", "ASCIIHexDecode"],
            &[],
        ),
    ];
    let long = long_text();
    for (name, filters, parms) in cases {
        let pdf = filtered_pdf(&long, filters, parms, false);
        assert_eq!(
            text(&format!("filter_{name}"), &pdf),
            format!("## Page 1\n\n{long}\n"),
            "{name}"
        );
    }
}

#[test]
fn reads_a_filter_and_a_length_written_through_indirect_references() {
    let long = long_text();
    let pdf = filtered_pdf(&long, &["ASCIIHexDecode", "FlateDecode"], &[], true);
    assert_eq!(
        text("filter_indirect", &pdf),
        format!("## Page 1\n\n{long}\n")
    );
}
