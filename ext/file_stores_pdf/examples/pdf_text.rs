//! Prints the text of each PDF named on the command line, as
//! `Converters::PdfText` gives it (`(nil)` for a scan), or its error; the
//! benchmark runs it.

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        if std::env::var_os("PDF_PAGES").is_some() {
            println!(
                "{:?}",
                file_stores_pdf::pages(&bytes, file_stores_pdf::Limits::default(), &|| false)
            );
            continue;
        }
        match file_stores_pdf::to_text(&bytes, file_stores_pdf::Limits::default(), &|| false) {
            Ok(Some(text)) => print!("{text}"),
            Ok(None) => println!("(nil)"),
            Err(e) => eprintln!("{path}: {e}"),
        }
    }
}
