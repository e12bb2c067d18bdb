//! Optional content (PDF 32000-1 8.11): which groups the document's
//! default configuration turns off, and whether a group or a membership
//! dictionary (`/OCMD`, with `/OCGs` and `/P`, or a `/VE` visibility
//! expression) is visible under it.
//!
//! pdftotext leaves out what a hidden group holds: text in `/OC /Name BDC`
//! … `EMC`, form XObjects and annotations with a hidden `/OC` (a layer of
//! notes switched off, a watermark for print only). It reads the groups as
//! poppler's `OCGs` does: each group listed in `/OCProperties /OCGs` starts
//! on, `/D /BaseState /OFF` turns them all off, then `/D /ON` and `/D /OFF`
//! set the groups they list (each list read up to its first entry that is
//! not a listed group's reference). What names no listed group, or is
//! malformed, is visible.
//!
//! Bounds: a visibility expression is followed at most [`MAX_DEPTH`] deep
//! and for at most [`MAX_STEPS`] terms in all (a shared sub-expression
//! used twice at each level would otherwise cost 2^depth); past either the
//! whole expression reads as visible, as poppler reads one it gives up on.
//! A membership dictionary is answered once a document, by its object (or,
//! written directly, by where it lies): a page marking content with one
//! 20,000 times evaluated it 20,000 times. The terms and groups looked at
//! are handed back as work, which the interpreter charges to its
//! operator budget.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use lopdf::{Document, Object, ObjectId};

/// How deep a visibility expression is followed (poppler stops past 50).
const MAX_DEPTH: u32 = 50;

/// How many terms of one visibility expression are evaluated in all.
const MAX_STEPS: u32 = 10_000;

/// The most groups read from `/OCProperties /OCGs`.
const MAX_GROUPS: usize = 100_000;

/// The most membership dictionaries whose answer is kept.
const MAX_ANSWERS: usize = 100_000;

/// A membership dictionary: its object, or where a direct one lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Asked {
    Object(ObjectId),
    At(usize),
}

/// The optional content groups of a document and whether each is on.
#[derive(Debug, Default)]
pub(super) struct Optional {
    groups: HashMap<ObjectId, bool>,
    /// Membership dictionaries answered so far.
    answers: RefCell<HashMap<Asked, bool>>,
}

/// An expression past [`MAX_DEPTH`] or [`MAX_STEPS`]: the whole of it
/// reads as visible.
struct GaveUp;

impl Optional {
    /// The document's groups as its default configuration sets them; None
    /// without `/OCProperties`, or with one lacking its `/OCGs` array or
    /// its `/D` dictionary (poppler then shows all content).
    pub(super) fn read(doc: &Document) -> Option<Self> {
        let catalog = doc.catalog().ok()?;
        let props = resolve(doc, catalog.get(b"OCProperties").ok()?)?
            .as_dict()
            .ok()?;
        let list = resolve(doc, props.get(b"OCGs").ok()?)?.as_array().ok()?;
        let mut groups = HashMap::new();
        for item in list.iter().take(MAX_GROUPS) {
            let Object::Reference(id) = item else { break };
            if !matches!(doc.get_object(*id), Ok(Object::Dictionary(_))) {
                break;
            }
            groups.insert(*id, true);
        }
        let config = resolve(doc, props.get(b"D").ok()?)?.as_dict().ok()?;
        let name = |key: &[u8]| {
            config
                .get(key)
                .ok()
                .and_then(|o| resolve(doc, o))
                .and_then(|o| o.as_name().ok())
        };
        if name(b"BaseState") == Some(b"OFF") {
            groups.values_mut().for_each(|on| *on = false);
        }
        for (key, on) in [(&b"ON"[..], true), (&b"OFF"[..], false)] {
            let Some(Object::Array(list)) = config.get(key).ok().and_then(|o| resolve(doc, o))
            else {
                continue;
            };
            for item in list.iter().take(MAX_GROUPS) {
                let Some(state) = (match item {
                    Object::Reference(id) => groups.get_mut(id),
                    _ => None,
                }) else {
                    break;
                };
                *state = on;
            }
        }
        Some(Optional {
            groups,
            answers: RefCell::default(),
        })
    }

    /// Whether content marked with `oc` (a group or a membership
    /// dictionary, as written: a reference or a direct object) is shown,
    /// and the work it took (terms and groups looked at; 1 when answered
    /// before).
    pub(super) fn visible(&self, doc: &Document, oc: &Object) -> (bool, u64) {
        if let Object::Reference(id) = oc {
            if let Some(on) = self.groups.get(id) {
                return (*on, 1);
            }
        }
        let asked = match oc {
            Object::Reference(id) => Asked::Object(*id),
            o => Asked::At(o as *const Object as usize),
        };
        if let Some(on) = self.answers.borrow().get(&asked) {
            return (*on, 1);
        }
        let steps = Cell::new(1);
        let on = self.evaluate(doc, oc, &steps);
        let mut answers = self.answers.borrow_mut();
        if answers.len() < MAX_ANSWERS {
            answers.insert(asked, on);
        }
        (on, u64::from(steps.get()))
    }

    /// [`Self::visible`] worked out, counting its work in `steps`.
    fn evaluate(&self, doc: &Document, oc: &Object, steps: &Cell<u32>) -> bool {
        let Some(Object::Dictionary(dict)) = resolve(doc, oc) else {
            return true;
        };
        let of_type = dict
            .get(b"Type")
            .ok()
            .and_then(|o| resolve(doc, o))
            .and_then(|o| o.as_name().ok());
        if of_type != Some(b"OCMD") {
            // A group listed was answered above; one not listed is shown.
            return true;
        }
        if let Some(ve @ Object::Array(_)) = dict.get(b"VE").ok().and_then(|o| resolve(doc, o)) {
            return self.expression(doc, ve, 0, steps).unwrap_or(true);
        }
        match dict.get(b"OCGs") {
            Ok(Object::Array(list)) => {
                let policy = dict
                    .get(b"P")
                    .ok()
                    .and_then(|o| resolve(doc, o))
                    .and_then(|o| o.as_name().ok());
                let looked = u32::try_from(list.len()).unwrap_or(u32::MAX);
                steps.set(steps.get().saturating_add(looked));
                let states = || {
                    list.iter().filter_map(|o| match o {
                        Object::Reference(id) => self.groups.get(id).copied(),
                        _ => None,
                    })
                };
                match policy {
                    Some(b"AllOn") => states().all(|on| on),
                    Some(b"AllOff") => states().all(|on| !on),
                    Some(b"AnyOff") => states().any(|on| !on),
                    Some(b"AnyOn") | None => states().any(|on| on),
                    // Another name: poppler leaves it visible.
                    Some(_) => true,
                }
            }
            Ok(Object::Reference(id)) => self.groups.get(id).copied().unwrap_or(true),
            _ => true,
        }
    }

    /// A visibility expression: a group, or `[/Not e]`, `[/And e…]`,
    /// `[/Or e…]`; anything else is visible. Past the bounds the whole
    /// evaluation stops ([`GaveUp`]).
    fn expression(
        &self,
        doc: &Document,
        expr: &Object,
        depth: u32,
        steps: &Cell<u32>,
    ) -> Result<bool, GaveUp> {
        steps.set(steps.get().saturating_add(1));
        if depth > MAX_DEPTH || steps.get() > MAX_STEPS {
            return Err(GaveUp);
        }
        if let Object::Reference(id) = expr {
            if let Some(on) = self.groups.get(id) {
                return Ok(*on);
            }
        }
        let Some(Object::Array(items)) = resolve(doc, expr) else {
            return Ok(true);
        };
        let Some((op, terms)) = items.split_first() else {
            return Ok(true);
        };
        let term = |e: &Object| self.expression(doc, e, depth + 1, steps);
        match resolve(doc, op).and_then(|o| o.as_name().ok()) {
            Some(b"Not") if terms.len() == 1 => term(&terms[0]).map(|on| !on),
            Some(b"And") => {
                for t in terms {
                    if !term(t)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Some(b"Or") => {
                for t in terms {
                    if term(t)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => Ok(true),
        }
    }
}

/// `o`, or the object it refers to (one step, as poppler fetches).
fn resolve<'d>(doc: &'d Document, o: &'d Object) -> Option<&'d Object> {
    match o {
        Object::Reference(id) => doc.get_object(*id).ok(),
        o => Some(o),
    }
}

#[cfg(test)]
mod crafted;
#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::{dictionary, Object};

    /// A document with groups `a` (on) and `b` (off) and a catalog naming
    /// them; returns it with their ids.
    fn doc() -> (Document, ObjectId, ObjectId) {
        let mut doc = Document::with_version("1.7");
        let a =
            doc.add_object(dictionary! { "Type" => "OCG", "Name" => Object::string_literal("a") });
        let b =
            doc.add_object(dictionary! { "Type" => "OCG", "Name" => Object::string_literal("b") });
        let props = dictionary! {
            "OCGs" => vec![a.into(), b.into()],
            "D" => dictionary! { "OFF" => vec![Object::Reference(b)] },
        };
        let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "OCProperties" => props });
        doc.trailer.set("Root", catalog);
        (doc, a, b)
    }

    #[test]
    fn reads_groups_and_membership_policies() {
        let (mut doc, a, b) = doc();
        // Each in the document, as the interpreter asks: answers are kept
        // by object.
        let mut md = |p: &str| {
            Object::Reference(doc.add_object(dictionary! {
                "Type" => "OCMD",
                "OCGs" => vec![a.into(), b.into()],
                "P" => p,
            }))
        };
        let policies = [md("AnyOn"), md("AllOn"), md("AnyOff"), md("AllOff")];
        let oc = Optional::read(&doc).unwrap_or_default();
        assert!(oc.visible(&doc, &Object::Reference(a)).0);
        assert!(!oc.visible(&doc, &Object::Reference(b)).0);
        let shown = policies.map(|p| oc.visible(&doc, &p).0);
        assert_eq!(shown, [true, false, true, false]);
    }

    #[test]
    fn bounds_a_visibility_expression_that_doubles_at_each_level() {
        let (mut doc, _, b) = doc();
        // Each level is [/And prev prev]: 2^200 terms if followed in full.
        let mut prev = doc.add_object(vec![Object::Name(b"Not".to_vec()), Object::Reference(b)]);
        for _ in 0..200 {
            let both = vec![Object::Name(b"And".to_vec()), prev.into(), prev.into()];
            prev = doc.add_object(both);
        }
        let oc = Optional::read(&doc).unwrap_or_default();
        let md = Object::Dictionary(dictionary! { "Type" => "OCMD", "VE" => prev });
        assert!(oc.visible(&doc, &md).0);
    }

    #[test]
    fn stops_the_whole_expression_at_its_bound_and_answers_once() {
        let (mut doc, _, b) = doc();
        // [/And self self ...] 100,000 times: each term is the expression
        // again, so only the step bound ends it; it then stops at once
        // instead of reading each remaining term as visible.
        let ve = doc.new_object_id();
        let mut terms = vec![Object::Name(b"And".to_vec())];
        terms.extend(std::iter::repeat_n(Object::Reference(ve), 100_000));
        doc.objects.insert(ve, Object::Array(terms));
        let md = doc.add_object(dictionary! { "Type" => "OCMD", "VE" => ve });
        let oc = Optional::read(&doc).unwrap_or_default();
        let (on, work) = oc.visible(&doc, &Object::Reference(md));
        assert!(on);
        assert!(work <= u64::from(MAX_STEPS) + 2, "{work} steps");
        // Asked again, it is answered from what was found.
        assert_eq!(oc.visible(&doc, &Object::Reference(md)), (true, 1));
        // A hidden group under it still hides, found within the bound.
        let not_b = doc.add_object(vec![Object::Name(b"Not".to_vec()), Object::Reference(b)]);
        let hidden = doc.add_object(dictionary! { "Type" => "OCMD", "VE" => vec![
            Object::Name(b"And".to_vec()), Object::Reference(b), Object::Reference(not_b),
        ] });
        assert!(!oc.visible(&doc, &Object::Reference(hidden)).0);
    }
}
