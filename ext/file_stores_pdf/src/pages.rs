//! The page tree: the pages of a document in order, walked with a visited
//! set.
//!
//! lopdf's own page iterator has none: it stops after as many kids as the
//! file has objects, so a node that is its own kid uses that up and every
//! page after it is dropped without a word, and a page listed 100,000 times
//! is read 100,000 times. Here each node and each page is visited once (a
//! page listed again is not read again), the walk is iterative with a
//! bounded depth, and `cancelled` is asked as it goes.

use std::collections::HashSet;

use lopdf::{Document, Object, ObjectId};

use crate::{Error, Result};

/// How deep page-tree nodes may nest (lopdf's own bound).
const MAX_DEPTH: usize = 256;

/// The ids of the document's pages, in order, each once.
pub fn page_ids(doc: &Document, cancelled: &dyn Fn() -> bool) -> Result<Vec<ObjectId>> {
    let Ok(root) = doc
        .catalog()
        .and_then(|c| c.get(b"Pages"))
        .and_then(Object::as_reference)
    else {
        return Ok(Vec::new());
    };
    let mut seen = HashSet::from([root]);
    let mut pages = Vec::new();
    let mut stack = vec![kids(doc, root).iter()];
    let mut steps = 0u32;
    while let Some(level) = stack.last_mut() {
        let Some(kid) = level.next() else {
            stack.pop();
            continue;
        };
        steps = steps.wrapping_add(1);
        if steps & 4095 == 0 && cancelled() {
            return Err(Error::Cancelled);
        }
        let Ok(id) = kid.as_reference() else {
            continue;
        };
        if !seen.insert(id) {
            continue;
        }
        match doc.get_dictionary(id).and_then(|d| d.get_type()) {
            Ok(b"Page") => pages.push(id),
            Ok(b"Pages") if stack.len() < MAX_DEPTH => stack.push(kids(doc, id).iter()),
            _ => {}
        }
    }
    Ok(pages)
}

/// A node's `/Kids`, or none.
fn kids(doc: &Document, node: ObjectId) -> &[Object] {
    doc.get_dictionary(node)
        .and_then(|d| d.get_deref(b"Kids", doc))
        .and_then(Object::as_array)
        .map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::dictionary;

    fn page(doc: &mut Document, parent: ObjectId) -> ObjectId {
        doc.add_object(dictionary! { "Type" => "Page", "Parent" => parent })
    }

    #[test]
    fn keeps_the_pages_after_a_node_that_is_its_own_kid() {
        let mut doc = Document::with_version("1.4");
        let root = doc.new_object_id();
        let cycle = doc.new_object_id();
        let first = page(&mut doc, root);
        let second = page(&mut doc, root);
        doc.objects.insert(
            cycle,
            Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => vec![cycle.into()] }),
        );
        let kids = vec![first.into(), cycle.into(), first.into(), second.into()];
        doc.objects.insert(
            root,
            Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids }),
        );
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => root });
        doc.trailer.set("Root", catalog);
        assert_eq!(page_ids(&doc, &|| false), Ok(vec![first, second]));
    }

    #[test]
    fn reads_the_page_after_a_page_tree_node_that_is_its_own_kid() {
        use crate::testpdf::{page_text, serialize, stream, text, HELVETICA};
        let mut objects = vec![
            "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
            "<< /Type /Pages /Kids [4 0 R 3 0 R 6 0 R] /Count 2 >>".into(),
            "<< /Type /Pages /Parent 2 0 R /Kids [3 0 R] /Count 1 >>".into(),
        ];
        for line in [
            "The first page of two.",
            "The second page, after the cycle.",
        ] {
            objects.push(format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {} 0 R \
                 /Resources << /Font << /F1 8 0 R >> >> >>",
                objects.len() + 2
            ));
            objects.push(String::from_utf8(stream(page_text(line), "")).expect("ASCII"));
        }
        objects.push(HELVETICA.into());
        assert_eq!(
            text("page_tree_cycle", &serialize(&objects)),
            "## Page 1\n\nThe first page of two.\n\n## Page 2\n\nThe second page, after the cycle.\n"
        );
    }
}
