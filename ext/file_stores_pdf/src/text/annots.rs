//! A page's annotations as pdftotext reads them (poppler's `Annot::draw`).
//!
//! Each visible annotation (not Hidden, not NoView) shows its normal
//! appearance, mapped as the specification's algorithm does (PDF 32000-1
//! 12.5.5): the form's `/BBox` through its `/Matrix`, then onto the
//! annotation's `/Rect`. Nothing clips it to the rectangle; its glyphs
//! that land off the page are dropped as the page's own are (a scrolling
//! text field's appearance holds every line of its value, most of them
//! below the page).
//!
//! Where poppler makes an appearance of its own, the text it would draw
//! is read instead: a form field's widget when it has no appearance for
//! its state, or when the form asks for new ones (`/NeedAppearances`):
//! a text field's value, a combo box's selected option, a list box's
//! options from its top one, a button's caption or check mark
//! (ZapfDingbats), a signature nothing; nothing when no `/DA` names a
//! font. A free-text note without an appearance shows its `/Contents`.
//! What the font cannot encode is not drawn: poppler looks for another
//! font and, on the reference machine, finds none. The reference is
//! poppler 22.12 (Debian's pdftotext), whose rules differ from later
//! ones in places (a signature's appearance is remade too; a check box
//! without `/DA` shows no mark).
//!
//! Bounds: at most [`MAX_ANNOTS`] annotations a page, each counted as
//! work; the form's field tree is walked once a document, each node once
//! and at most [`MAX_FIELDS`] of them; a field's inherited entries are
//! looked up at most [`MAX_PARENTS`] parents up, each parent once (a
//! cyclic field tree ends); at most [`MAX_OPTIONS`] options of a choice
//! field are read. Nothing is made for a widget whose rectangle lies off
//! the page. Each string is read as work (a unit per 64 bytes) and cut
//! before it is decoded: a value to what the text limit leaves, an option
//! to [`MAX_OPTION_BYTES`]; a list box's options are made one at a time,
//! down to the page's foot (pdftotext keeps no row below it) and no
//! further than the text limit; a combo box's values are looked up in a
//! set, compared on their first [`MAX_OPTION_BYTES`], and its text is
//! found once per field ([`Choices`]), not once per widget.

use super::*;

/// The most annotations read on one page.
const MAX_ANNOTS: usize = 10_000;
/// The most parents a field's inherited entry is looked for in.
const MAX_PARENTS: usize = 32;
/// The most options of a choice field read.
const MAX_OPTIONS: usize = 4096;

/// The most bytes of one option read (and of a value compared): more
/// than a row across a page shows (pdftotext keeps what lies on it).
const MAX_OPTION_BYTES: usize = 4096;

/// The most combo boxes whose text is kept.
const MAX_CHOICES: usize = 100_000;

/// The entries a combo box's text depends on, each kept by the field
/// (or widget) that holds it.
const CHOICE_KEYS: [&[u8]; 4] = [b"Opt", b"I", b"V", b"Ff"];

/// A combo box's text for each field, found once a document: 200
/// widgets of one field compared every value with every option 200 times.
/// Keyed by the objects that hold the entries it depends on.
#[derive(Default)]
pub(super) struct Choices(HashMap<[Option<ObjectId>; 4], Option<String>>);

/// Field flags (`/Ff`) that decide what a generated appearance shows.
const MULTILINE: i64 = 1 << 12;
const PASSWORD: i64 = 1 << 13;
const RADIO: i64 = 1 << 15;
const PUSH: i64 = 1 << 16;
const COMBO: i64 = 1 << 17;
const EDIT: i64 = 1 << 18;
const COMB: i64 = 1 << 24;

/// The most nodes of the form's field tree walked.
const MAX_FIELDS: usize = 100_000;

/// The document's interactive form (`/AcroForm`), as far as generated
/// appearances need it.
pub(super) struct Form<'d> {
    need_appearances: bool,
    da: &'d [u8],
    /// The default resources, where a `/DA`'s font is looked up.
    dr: Option<&'d Dictionary>,
    /// Each kid's field in the field tree (`/Fields`, `/Kids`), which
    /// poppler follows where a kid lacks its `/Parent`.
    parents: HashMap<ObjectId, ObjectId>,
    /// The nodes of the field tree. A widget outside it is a field of
    /// its own to poppler, with no group above it.
    in_tree: HashSet<ObjectId>,
}

/// Which characters of a field's text its font can draw (poppler skips
/// what the font cannot encode, finding no other font for it).
enum Drawable {
    All,
    Some(HashSet<char>),
}

impl Drawable {
    fn keep(&self, text: &str) -> String {
        match self {
            Drawable::All => text.to_owned(),
            Drawable::Some(set) => text
                .chars()
                .filter(|c| c.is_whitespace() || set.contains(c))
                .collect(),
        }
    }
}

/// A field as poppler reads it for one widget: the widget, then its
/// parents up the tree, nearest first.
struct Field<'d> {
    chain: Vec<&'d Dictionary>,
    /// The objects of `chain`.
    ids: Vec<ObjectId>,
    /// Whether the widget is in the form's field tree.
    in_tree: bool,
}

impl<'d> Field<'d> {
    fn new(doc: &'d Document, form: &Form, id: ObjectId, widget: &'d Dictionary) -> Self {
        let mut chain = vec![widget];
        let mut seen = vec![id];
        let (mut id, mut node) = (id, widget);
        while chain.len() < MAX_PARENTS {
            let next = match node.get(b"Parent") {
                Ok(Object::Reference(p)) => Some(*p),
                _ => form.parents.get(&id).copied(),
            };
            let Some(next) = next.filter(|p| !seen.contains(p)) else {
                break;
            };
            let Ok(dict) = doc.get_dictionary(next) else {
                break;
            };
            seen.push(next);
            chain.push(dict);
            (id, node) = (next, dict);
        }
        Field {
            chain,
            ids: seen,
            in_tree: form.in_tree.contains(&id),
        }
    }

    /// For each of `keys`, the object whose dictionary holds it.
    fn owners<const N: usize>(&self, keys: [&[u8]; N]) -> [Option<ObjectId>; N] {
        keys.map(|k| {
            self.chain
                .iter()
                .zip(&self.ids)
                .find(|(d, _)| d.has(k))
                .map(|(_, id)| *id)
        })
    }

    /// An inheritable entry, from the nearest dictionary that has it.
    fn get(&self, doc: &'d Document, key: &[u8]) -> Option<&'d Object> {
        self.chain
            .iter()
            .find_map(|d| d.get(key).ok())
            .and_then(|o| resolve(doc, o))
    }

    /// A radio button's group value: from its parents in the field tree
    /// (a kid's own `/V` is not its group's), from itself alone outside.
    fn group_value(&self, doc: &'d Document) -> Option<&'d Object> {
        let dicts = match self.chain.get(1..) {
            Some(parents) if self.in_tree && !parents.is_empty() => parents,
            _ => &self.chain[..1],
        };
        dicts
            .iter()
            .find_map(|d| d.get(b"V").ok())
            .and_then(|o| resolve(doc, o))
    }
}

impl<'a> Interpreter<'a> {
    /// The text of the page's annotations as they appear (form fields,
    /// free text, stamps).
    pub(super) fn annotations(
        &mut self,
        page: ObjectId,
        resources: Option<&'a Dictionary>,
        line: &mut Line,
    ) -> Result<()> {
        let doc = self.doc;
        let Ok(page) = doc.get_dictionary(page) else {
            return Ok(());
        };
        let annots = match page.get(b"Annots") {
            Ok(Object::Reference(id)) => doc.get_object(*id).and_then(Object::as_array).ok(),
            Ok(Object::Array(a)) => Some(a),
            _ => None,
        };
        let Some(annots) = annots else {
            return Ok(());
        };
        let form = match &self.form {
            Some(form) => form.clone(),
            None => self.form.insert(Rc::new(form(doc))).clone(),
        };
        // An annotation listed again is shown once.
        let mut shown = HashSet::new();
        for annot in annots.iter().take(MAX_ANNOTS) {
            self.work(1)?;
            let (annot, own_id) = match annot {
                Object::Reference(id) if !shown.insert(*id) => continue,
                Object::Reference(id) => match doc.get_dictionary(*id) {
                    Ok(d) => (d, Some(*id)),
                    Err(_) => continue,
                },
                Object::Dictionary(d) => (d, None),
                _ => continue,
            };
            // Hidden (bit 2) and NoView (bit 6) annotations are not shown.
            if annot
                .get(b"F")
                .and_then(Object::as_i64)
                .is_ok_and(|f| f & 0b10_0010 != 0)
            {
                continue;
            }
            // Nor is one in a hidden optional content group.
            if !self.oc_visible(annot.get(b"OC").ok())? {
                continue;
            }
            // Without a rectangle poppler has no annotation; an empty one
            // draws nothing.
            let Some(rect) = rect(annot) else { continue };
            if rect[0] == rect[2] || rect[1] == rect[3] {
                continue;
            }
            // Nothing is made for a widget wholly off the page.
            if let Some([x0, y0, x1, y1]) = line.page {
                if rect[2] < x0 || rect[0] > x1 || rect[3] < y0 || rect[1] > y1 {
                    continue;
                }
            }
            let (appearance, state) = normal_appearance(doc, annot);
            let subtype = annot.get(b"Subtype").and_then(Object::as_name).ok();
            let generated =
                match subtype {
                    // Only a widget listed by reference has a field in poppler.
                    Some(b"Widget") if own_id.is_some() => {
                        let field = Field::new(doc, &form, own_id.unwrap_or((0, 0)), annot);
                        match field.get(doc, b"FT").and_then(|o| o.as_name().ok()) {
                            Some(kind) if appearance.is_none() || form.need_appearances => {
                                let own_da = string_bytes(field.get(doc, b"DA"));
                                let da = if own_da.is_empty() { form.da } else { own_da };
                                let drs: Vec<&'a Dictionary> = field
                                    .chain
                                    .iter()
                                    .find_map(|d| sub_dict(doc, d, b"DR"))
                                    .into_iter()
                                    .chain(form.dr)
                                    .collect();
                                let drawable = self.drawable(&drs, da)?;
                                let shown = Shown {
                                    rect,
                                    page: line.page,
                                    room: line.room_left(),
                                };
                                Some(self.widget_text(
                                    annot, &field, kind, state, &form, &drawable, shown,
                                )?)
                            }
                            _ => None,
                        }
                    }
                    Some(b"FreeText") if appearance.is_none() => {
                        let da = string_bytes(annot.get(b"DA").ok().and_then(|o| resolve(doc, o)));
                        let drs: Vec<&'a Dictionary> = form.dr.into_iter().collect();
                        let drawable = self.drawable(&drs, da)?;
                        let contents = annot.get(b"Contents").ok().and_then(|o| resolve(doc, o));
                        let contents = contents.map(|c| capped(c, line.room_left()));
                        self.work(bytes_work(contents.as_deref().map_or(0, string_len)))?;
                        Some(free_text(contents.as_deref(), &drawable))
                    }
                    _ => None,
                };
            if let Some(lines) = generated {
                self.place_generated(&lines, line)?;
                continue;
            }
            let Some((id, stream)) = appearance else {
                continue;
            };
            let Some(ctm) = appearance_matrix(&stream.dict, rect) else {
                continue;
            };
            line.newline();
            let mut forms = Vec::new();
            self.run_form_at(id, stream, resources, ctm, 0, &mut forms, line)?;
            line.newline();
        }
        Ok(())
    }

    /// What the font a `/DA` names can draw: the font from the first of
    /// `resources` that has it, else the Helvetica (WinAnsi) poppler falls
    /// back to. Every character of a font of two-byte codes.
    fn drawable(&mut self, resources: &[&'a Dictionary], da: &[u8]) -> Result<Drawable> {
        let Some(name) = font_name(da) else {
            return Ok(Drawable::All);
        };
        let doc = self.doc;
        let found = resources
            .iter()
            .copied()
            .find(|r| sub_dict(doc, r, b"Font").is_some_and(|f| f.has(name)));
        if let Some(r) = found {
            if let Some(font) = self.font(Some(r), name)? {
                if !font.simple() {
                    return Ok(Drawable::All);
                }
                let mut set = HashSet::new();
                let mut text = String::new();
                for code in 0..=255u32 {
                    text.clear();
                    font.decode(code, &mut text);
                    let mut chars = text.chars();
                    if let (Some(c), None) = (chars.next(), chars.next()) {
                        set.insert(c);
                    }
                }
                set.remove(&'\u{FFFD}');
                return Ok(Drawable::Some(set));
            }
        }
        let winansi = pdf_encoding::Encoding::WinAnsiEncoding.forward_map();
        Ok(Drawable::Some(
            (0..=255u8)
                .filter_map(|b| winansi.and_then(|m| m.get(b)))
                .collect(),
        ))
    }

    /// Puts the lines of a generated appearance on lines of their own.
    fn place_generated(&mut self, lines: &[String], line: &mut Line) -> Result<()> {
        for text in lines {
            self.work(bytes_work(text.len()))?;
            line.newline();
            line.last = None;
            for c in text.chars() {
                if c.is_whitespace() {
                    line.space();
                } else if !c.is_control() {
                    line.push(c);
                }
                if line.full {
                    break;
                }
            }
            line.newline();
            self.text_room(line)?;
        }
        Ok(())
    }
}

fn form(doc: &Document) -> Form<'_> {
    let acro = doc
        .catalog()
        .ok()
        .and_then(|c| sub_dict(doc, c, b"AcroForm"));
    let Some(acro) = acro else {
        return Form {
            need_appearances: false,
            da: b"",
            dr: None,
            parents: HashMap::new(),
            in_tree: HashSet::new(),
        };
    };
    let need_appearances = matches!(
        acro.get(b"NeedAppearances")
            .ok()
            .and_then(|o| resolve(doc, o)),
        Some(Object::Boolean(true))
    );
    let da = match acro.get(b"DA").ok().and_then(|o| resolve(doc, o)) {
        Some(Object::String(s, _)) => s.as_slice(),
        _ => b"",
    };
    let (parents, in_tree) = tree_parents(doc, acro);
    Form {
        need_appearances,
        da,
        dr: sub_dict(doc, acro, b"DR"),
        parents,
        in_tree,
    }
}

/// Each kid's field in the form's field tree, and the tree's nodes,
/// walked breadth first with each node once and at most [`MAX_FIELDS`]
/// of them.
fn tree_parents(
    doc: &Document,
    acro: &Dictionary,
) -> (HashMap<ObjectId, ObjectId>, HashSet<ObjectId>) {
    let mut parents = HashMap::new();
    let kids = |d: &Dictionary| -> Vec<ObjectId> {
        match d.get(b"Kids").ok().and_then(|k| resolve(doc, k)) {
            Some(Object::Array(a)) => a
                .iter()
                .take(MAX_FIELDS)
                .filter_map(|k| k.as_reference().ok())
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut queue: std::collections::VecDeque<ObjectId> =
        match acro.get(b"Fields").ok().and_then(|f| resolve(doc, f)) {
            Some(Object::Array(a)) => a
                .iter()
                .take(MAX_FIELDS)
                .filter_map(|k| k.as_reference().ok())
                .collect(),
            _ => return (parents, HashSet::new()),
        };
    let mut seen: HashSet<ObjectId> = queue.iter().copied().collect();
    let mut walked = 0;
    while let Some(id) = queue.pop_front() {
        walked += 1;
        if walked > MAX_FIELDS {
            break;
        }
        let Ok(dict) = doc.get_dictionary(id) else {
            continue;
        };
        for kid in kids(dict) {
            if seen.len() < MAX_FIELDS && seen.insert(kid) {
                parents.insert(kid, id);
                queue.push_back(kid);
            }
        }
    }
    (parents, seen)
}

fn resolve<'d>(doc: &'d Document, o: &'d Object) -> Option<&'d Object> {
    match o {
        Object::Reference(id) => doc.get_object(*id).ok(),
        o => Some(o),
    }
}

/// The annotation's rectangle, its corners in order (x0 < x1, y0 < y1).
fn rect(annot: &Dictionary) -> Option<[f64; 4]> {
    let Ok(Object::Array(r)) = annot.get(b"Rect") else {
        return None;
    };
    let v: Vec<f64> = r.iter().take(5).filter_map(number).collect();
    if r.len() != 4 || v.len() != 4 {
        return None;
    }
    Some([
        v[0].min(v[2]),
        v[1].min(v[3]),
        v[0].max(v[2]),
        v[1].max(v[3]),
    ])
}

/// The annotation's normal appearance stream for its state, and the
/// state: `/AS`, else the only state there is, else `Off` (as poppler).
fn normal_appearance<'d>(
    doc: &'d Document,
    annot: &'d Dictionary,
) -> (Option<(ObjectId, &'d lopdf::Stream)>, &'d [u8]) {
    let states_or_stream = sub_object(doc, annot, b"AP")
        .and_then(|ap| ap.as_dict().ok())
        .and_then(|ap| ap.get(b"N").ok());
    let stream = |o: &'d Object| match o {
        Object::Reference(id) => match doc.get_object(*id) {
            Ok(Object::Stream(s)) => Some((*id, s)),
            _ => None,
        },
        _ => None,
    };
    let states = match states_or_stream {
        Some(Object::Reference(id)) => match doc.get_object(*id) {
            Ok(Object::Stream(s)) => Some(Err((*id, s))),
            Ok(Object::Dictionary(d)) => Some(Ok(d)),
            _ => None,
        },
        Some(Object::Dictionary(d)) => Some(Ok(d)),
        _ => None,
    };
    let own = annot.get(b"AS").and_then(Object::as_name).ok();
    match states {
        Some(Err(found)) => (Some(found), own.unwrap_or(b"Off")),
        Some(Ok(states)) => {
            let only = (states.len() == 1)
                .then(|| states.iter().next().map(|(k, _)| k.as_slice()))
                .flatten();
            let state = own.or(only).unwrap_or(b"Off");
            (states.get(state).ok().and_then(stream), state)
        }
        None => (None, own.unwrap_or(b"Off")),
    }
}

fn sub_object<'d>(doc: &'d Document, dict: &'d Dictionary, key: &[u8]) -> Option<&'d Object> {
    resolve(doc, dict.get(key).ok()?)
}

/// Where an appearance form is drawn: its `/Matrix`, then the map taking
/// its box so transformed onto `rect` (PDF 32000-1 12.5.5). None without
/// a box of four numbers, which poppler does not draw.
fn appearance_matrix(dict: &Dictionary, rect: [f64; 4]) -> Option<Matrix> {
    let Ok(Object::Array(b)) = dict.get(b"BBox") else {
        return None;
    };
    let b: Vec<f64> = b.iter().take(5).filter_map(number).collect();
    if b.len() != 4 {
        return None;
    }
    let m = form_matrix(dict);
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in [(b[0], b[1]), (b[0], b[3]), (b[2], b[1]), (b[2], b[3])] {
        let tx = x * m[0] + y * m[2] + m[4];
        let ty = x * m[1] + y * m[3] + m[5];
        x0 = x0.min(tx);
        x1 = x1.max(tx);
        y0 = y0.min(ty);
        y1 = y1.max(ty);
    }
    let sx = if x1 > x0 {
        (rect[2] - rect[0]) / (x1 - x0)
    } else {
        1.0
    };
    let sy = if y1 > y0 {
        (rect[3] - rect[1]) / (y1 - y0)
    } else {
        1.0
    };
    let map = [sx, 0.0, 0.0, sy, rect[0] - x0 * sx, rect[1] - y0 * sy];
    let full = mul(&m, &map);
    full.iter().all(|v| v.is_finite()).then_some(full)
}

/// A text string as poppler reads one: UTF-16BE after its mark, else
/// PDFDocEncoding (a UTF-8 mark, PDF 2.0's, is three letters to it).
fn text_string(o: &Object) -> Option<String> {
    match o {
        Object::String(s, format) if s.starts_with(b"\xEF\xBB\xBF") => {
            let rest = Object::String(s[3..].to_vec(), *format);
            let rest = lopdf::decode_text_string(&rest).ok()?;
            Some(format!("\u{ef}\u{bb}\u{bf}{rest}"))
        }
        Object::String(..) => lopdf::decode_text_string(o).ok(),
        _ => None,
    }
}

fn string_bytes(o: Option<&Object>) -> &[u8] {
    match o {
        Some(Object::String(s, _)) => s,
        _ => b"",
    }
}

/// The font a default appearance string sets (`/Name size Tf`), the
/// last one.
fn font_name(da: &[u8]) -> Option<&[u8]> {
    let tokens: Vec<&[u8]> = da
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    tokens
        .windows(3)
        .rfind(|w| w[2] == b"Tf")
        .and_then(|w| w[0].strip_prefix(b"/"))
}

fn sets_font(da: &[u8]) -> bool {
    font_name(da).is_some()
}

/// Whether poppler can draw a field's text: its `/DA` (inherited, else
/// the form's) sets a font, or the form's does. (poppler 22.12, the
/// reference, draws no check mark without one either.)
fn da_drawable(own: &[u8], form: &Form) -> bool {
    let da = if own.is_empty() { form.da } else { own };
    sets_font(da) || (da != form.da && sets_font(form.da))
}

/// Where a generated appearance is shown: the widget's rectangle, the
/// page's box, and the bytes of text the limit leaves.
#[derive(Clone, Copy)]
struct Shown {
    rect: [f64; 4],
    page: Option<[f64; 4]>,
    room: usize,
}

impl<'a> Interpreter<'a> {
    /// The text poppler draws in the appearance it makes for a widget of a
    /// field of type `kind` in `state`.
    #[allow(clippy::too_many_arguments)]
    fn widget_text(
        &mut self,
        annot: &'a Dictionary,
        field: &Field<'a>,
        kind: &[u8],
        state: &[u8],
        form: &Form,
        drawable: &Drawable,
        shown: Shown,
    ) -> Result<Vec<String>> {
        let doc = self.doc;
        let flags = field
            .get(doc, b"Ff")
            .and_then(|o| o.as_i64().ok())
            .unwrap_or(0);
        let own_da = string_bytes(field.get(doc, b"DA"));
        let caption = sub_object(doc, annot, b"MK")
            .and_then(|mk| mk.as_dict().ok())
            .and_then(|mk| mk.get(b"CA").ok())
            .and_then(|ca| resolve(doc, ca));
        let lines = match kind {
            b"Btn" if flags & PUSH != 0 => {
                let caption = caption.map(|c| capped(c, shown.room));
                self.work(bytes_work(caption.as_deref().map_or(0, string_len)))?;
                match caption.as_deref().and_then(text_string) {
                    Some(c) if da_drawable(own_da, form) => vec![drawable.keep(&c)],
                    _ => Vec::new(),
                }
            }
            b"Btn" => {
                // A radio button is on when its group's value names its state
                // (a kid's own `/V` does not count); a check box when its
                // state is not Off.
                let on = state != b"Off"
                    && (flags & RADIO == 0
                        || field.group_value(doc).and_then(|v| v.as_name().ok()) == Some(state));
                let mark = match caption {
                    Some(c) => string_bytes(Some(c)),
                    // A check box without a caption shows ZapfDingbats' check.
                    None if flags & RADIO == 0 => b"3",
                    None => b"",
                };
                if !on || mark.is_empty() || !da_drawable(own_da, form) {
                    return Ok(Vec::new());
                }
                let mark = &mark[..mark.len().min(shown.room.saturating_add(1))];
                self.work(bytes_work(mark.len()))?;
                vec![dingbats(mark)]
            }
            b"Tx" => {
                let Some(value) = field.get(doc, b"V") else {
                    return Ok(Vec::new());
                };
                if !da_drawable(own_da, form) {
                    return Ok(Vec::new());
                }
                let value = capped(value, shown.room);
                self.work(bytes_work(string_len(&value)))?;
                let Some(value) = text_string(&value) else {
                    return Ok(Vec::new());
                };
                let value = drawable.keep(&value);
                if flags & PASSWORD != 0 {
                    return Ok(vec![
                        "*".repeat(value.chars().filter(|c| !c.is_control()).count())
                    ]);
                }
                let combs = field
                    .get(doc, b"MaxLen")
                    .and_then(|o| o.as_i64().ok())
                    .filter(|&n| n > 0 && flags & COMB != 0 && flags & MULTILINE == 0);
                if let Some(n) = combs {
                    // Each character in a cell of its own, apart from the
                    // next; made in place, no longer than the value.
                    let mut cells = String::with_capacity(value.len() * 2);
                    let chars = value.chars().filter(|c| !c.is_control());
                    for c in chars.take(usize::try_from(n).unwrap_or(usize::MAX)) {
                        if !cells.is_empty() {
                            cells.push(' ');
                        }
                        cells.push(c);
                    }
                    return Ok(vec![cells]);
                }
                value
                    .split(['\r', '\n'])
                    .filter(|l| !l.is_empty())
                    .map(str::to_owned)
                    .collect()
            }
            b"Ch" => {
                if !da_drawable(own_da, form) {
                    return Ok(Vec::new());
                }
                let lines = if flags & COMBO == 0 {
                    let da = if own_da.is_empty() { form.da } else { own_da };
                    self.list_box(field, da, shown)?
                } else {
                    self.combo_box(field, flags, shown)?.into_iter().collect()
                };
                lines.iter().map(|l| drawable.keep(l)).collect()
            }
            _ => Vec::new(),
        };
        Ok(lines)
    }

    /// A list box's options from its top index on, made one at a time:
    /// each cut to [`MAX_OPTION_BYTES`], down to the page's foot (a row
    /// every 1.1 em of the `/DA`'s size from the rectangle's top, as
    /// poppler draws them), and no further than the text limit.
    fn list_box(&mut self, field: &Field<'a>, da: &[u8], shown: Shown) -> Result<Vec<String>> {
        let doc = self.doc;
        let Some(options) = field.get(doc, b"Opt").and_then(|o| o.as_array().ok()) else {
            return Ok(Vec::new());
        };
        let top = field
            .get(doc, b"TI")
            .and_then(|o| o.as_i64().ok())
            .and_then(|t| usize::try_from(t).ok())
            .unwrap_or(0);
        let rows = match (font_size(da), shown.page) {
            (Some(size), Some([_, y0, _, _])) if size > 0.0 => {
                let rows = ((shown.rect[3] - y0) / (1.1 * size)).floor();
                if rows.is_finite() {
                    rows.clamp(0.0, MAX_OPTIONS as f64) as usize
                } else {
                    MAX_OPTIONS
                }
            }
            _ => MAX_OPTIONS,
        };
        let mut lines = Vec::new();
        let mut made = 0usize;
        for option in options.iter().take(MAX_OPTIONS).skip(top) {
            if lines.len() >= rows || made > shown.room {
                break;
            }
            self.work(1)?;
            let Some(text) = option_shown(doc, option) else {
                continue;
            };
            let text = capped(text, shown.room.min(MAX_OPTION_BYTES / 2));
            self.work(bytes_work(string_len(&text)))?;
            if let Some(text) = text_string(&text) {
                made = made.saturating_add(text.len());
                lines.push(text);
            }
        }
        Ok(lines)
    }

    /// A combo box's shown text: its selected option (or its edited
    /// value), found once per field ([`Choices`]).
    fn combo_box(&mut self, field: &Field<'a>, flags: i64, shown: Shown) -> Result<Option<String>> {
        let key = field.owners(CHOICE_KEYS);
        if let Some(text) = self.choices.0.get(&key).cloned() {
            self.work(1)?;
            return Ok(text);
        }
        let text = self.selected_option(field, flags, shown)?;
        if self.choices.0.len() < MAX_CHOICES {
            self.choices.0.insert(key, text.clone());
        }
        Ok(text)
    }

    /// A combo box's selected option: by `/I` (as Acrobat and poppler
    /// prefer it), else by `/V` naming an option's export value (or its
    /// text, when it has none), looked up in a set of the values; each
    /// option and value read as work.
    fn selected_option(
        &mut self,
        field: &Field<'a>,
        flags: i64,
        shown: Shown,
    ) -> Result<Option<String>> {
        let doc = self.doc;
        let cut = |s: &'a [u8]| &s[..s.len().min(MAX_OPTION_BYTES)];
        // Each option: what `/V` names it by, and the text shown.
        let options: Vec<(&[u8], Option<&Object>)> =
            match field.get(doc, b"Opt").and_then(|o| o.as_array().ok()) {
                Some(opt) => opt
                    .iter()
                    .take(MAX_OPTIONS)
                    .map(|o| {
                        let shown = option_shown(doc, o);
                        let named = match resolve(doc, o) {
                            Some(Object::Array(pair)) if pair.len() >= 2 => {
                                match pair.first().and_then(|o| resolve(doc, o)) {
                                    Some(Object::String(s, _)) => Some(s.as_slice()),
                                    _ => None,
                                }
                            }
                            _ => None,
                        };
                        let named = named.or_else(|| shown.map(|s| string_bytes(Some(s))));
                        (cut(named.unwrap_or_default()), shown)
                    })
                    .collect(),
                None => Vec::new(),
            };
        self.work(options.len() as u64)?;
        let selected: Option<usize> = match field.get(doc, b"I") {
            Some(Object::Array(indices)) => indices
                .iter()
                .take(MAX_OPTIONS)
                .filter_map(|i| i.as_i64().ok())
                .filter_map(|i| usize::try_from(i).ok())
                .filter(|&i| i < options.len())
                .min(),
            _ => {
                let values: Vec<&[u8]> = match field.get(doc, b"V") {
                    Some(Object::String(v, _)) => vec![cut(v)],
                    Some(Object::Array(values)) => values
                        .iter()
                        .take(MAX_OPTIONS)
                        .filter_map(|v| match v {
                            Object::String(v, _) => Some(cut(v)),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                let hashed: usize = values.iter().map(|v| v.len()).sum::<usize>()
                    + options.iter().map(|(n, _)| n.len()).sum::<usize>();
                self.work(bytes_work(hashed))?;
                let set: HashSet<&[u8]> = values.into_iter().collect();
                // An option with neither an export value nor a text is
                // named by nothing.
                let found = options.iter().position(|(named, shown)| {
                    (shown.is_some() || !named.is_empty()) && set.contains(named)
                });
                if found.is_none() && flags & EDIT != 0 {
                    if let Some(v @ Object::String(..)) = field.get(doc, b"V") {
                        let v = capped(v, shown.room);
                        self.work(bytes_work(string_len(&v)))?;
                        return Ok(text_string(&v));
                    }
                }
                found
            }
        };
        let Some(text) = selected.and_then(|i| options.get(i)).and_then(|(_, s)| *s) else {
            return Ok(None);
        };
        let text = capped(text, MAX_OPTION_BYTES / 2);
        self.work(bytes_work(string_len(&text)))?;
        Ok(text_string(&text))
    }
}

/// The text an option of `/Opt` shows: the option, or the second of its
/// pair (export value, text); None when that is no string.
fn option_shown<'d>(doc: &'d Document, option: &'d Object) -> Option<&'d Object> {
    match resolve(doc, option)? {
        s @ Object::String(..) => Some(s),
        Object::Array(pair) if pair.len() >= 2 => pair
            .get(1)
            .and_then(|o| resolve(doc, o))
            .filter(|o| matches!(o, Object::String(..))),
        _ => None,
    }
}

/// The font size a default appearance string sets (`/Name size Tf`), the
/// last one.
fn font_size(da: &[u8]) -> Option<f64> {
    let tokens: Vec<&[u8]> = da
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    let w = tokens.windows(3).rfind(|w| w[2] == b"Tf")?;
    std::str::from_utf8(w[1]).ok()?.parse().ok()
}

/// A button's caption as ZapfDingbats draws it ("3" is a check mark).
fn dingbats(bytes: &[u8]) -> String {
    let Some(map) = pdf_encoding::Encoding::AdobeZdingbat.forward_map() else {
        return String::new();
    };
    bytes.iter().filter_map(|&b| map.get(b)).collect()
}

/// The lines of a free-text note without an appearance: its `/Contents`,
/// what its font can draw of them.
fn free_text(contents: Option<&Object>, drawable: &Drawable) -> Vec<String> {
    let Some(text) = contents.and_then(text_string) else {
        return Vec::new();
    };
    text.split(['\r', '\n'])
        .map(|l| drawable.keep(l))
        .filter(|l| !l.trim().is_empty())
        .collect()
}

#[cfg(test)]
mod crafted;
#[cfg(test)]
mod tests {
    use super::*;

    fn form_dict(bbox: [i64; 4], matrix: Option<[i64; 6]>) -> Dictionary {
        let mut d = Dictionary::new();
        d.set(
            "BBox",
            Object::Array(bbox.iter().map(|&v| Object::Integer(v)).collect()),
        );
        if let Some(m) = matrix {
            d.set(
                "Matrix",
                Object::Array(m.iter().map(|&v| Object::Integer(v)).collect()),
            );
        }
        d
    }

    fn apply(m: &Matrix, x: f64, y: f64) -> (f64, f64) {
        (x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5])
    }

    #[test]
    fn maps_the_box_onto_the_rectangle() {
        // The box's corner at (100, 500) lands on the rectangle's.
        let m = appearance_matrix(
            &form_dict([100, 500, 300, 520], None),
            [72.0, 40.0, 272.0, 60.0],
        );
        let m = m.expect("a box");
        assert_eq!(apply(&m, 100.0, 500.0), (72.0, 40.0));
        assert_eq!(apply(&m, 300.0, 520.0), (272.0, 60.0));
    }

    #[test]
    fn maps_a_rotated_box_onto_the_rectangle() {
        // Turned a quarter: the box 20 wide, 10 high stands 10 wide, 20 high.
        let dict = form_dict([0, 0, 20, 10], Some([0, 1, -1, 0, 0, 0]));
        let m = appearance_matrix(&dict, [100.0, 100.0, 110.0, 120.0]).expect("a box");
        assert_eq!(apply(&m, 0.0, 0.0), (110.0, 100.0));
        assert_eq!(apply(&m, 20.0, 10.0), (100.0, 120.0));
    }

    #[test]
    fn draws_nothing_without_a_box() {
        let mut dict = form_dict([0, 0, 1, 1], None);
        dict.set(
            "BBox",
            Object::Array(vec![Object::Integer(0), Object::Null]),
        );
        assert!(appearance_matrix(&dict, [0.0, 0.0, 10.0, 10.0]).is_none());
    }

    #[test]
    fn ends_a_cyclic_field_tree() {
        let mut doc = Document::with_version("1.7");
        let a = doc.new_object_id();
        let b = doc.new_object_id();
        let mut da = Dictionary::new();
        da.set("Parent", Object::Reference(b));
        let mut db = Dictionary::new();
        db.set("Parent", Object::Reference(a));
        db.set("FT", Object::Name(b"Tx".to_vec()));
        doc.objects.insert(a, Object::Dictionary(da));
        doc.objects.insert(b, Object::Dictionary(db));
        let form = form(&doc);
        let widget = doc.get_dictionary(a).expect("a dictionary");
        let field = Field::new(&doc, &form, a, widget);
        assert_eq!(field.chain.len(), 2);
        assert_eq!(field.get(&doc, b"FT"), Some(&Object::Name(b"Tx".to_vec())));
        assert_eq!(field.get(&doc, b"V"), None);
    }

    #[test]
    fn makes_a_list_box_down_to_the_page_foot_each_option_cut() {
        use lopdf::dictionary;
        let mut doc = Document::with_version("1.7");
        let long = doc.add_object(Object::string_literal("l".repeat(100_000)));
        let widget = doc.add_object(dictionary! {
            "Type" => "Annot", "Subtype" => "Widget", "FT" => "Ch", "T" => Object::string_literal("l"),
            "DA" => Object::string_literal("/Helv 12 Tf"),
            "Rect" => vec![72.into(), 50.into(), 272.into(), 100.into()],
            "Opt" => vec![Object::Reference(long); 1000],
        });
        let annots = dictionary! { "Annots" => vec![widget.into()] };
        let page = crate::text::tests::one_page(&mut doc, b"", Dictionary::new(), annots);
        let never = || false;
        let mut reader = Interpreter::new(&doc, b"", crate::Limits::default(), &never);
        let text = reader.page(page).expect("read").text;
        // A row every 13.2 points down from y = 100: 7 above the foot.
        let rows: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(rows.len(), 7);
        assert!(rows
            .iter()
            .all(|r| r.len() <= MAX_OPTION_BYTES + 8 && r.len() > 4000));
    }

    #[test]
    fn finds_a_combo_box_s_text_once_per_field() {
        use lopdf::dictionary;
        let mut doc = Document::with_version("1.7");
        let long = "c".repeat(10_000);
        let field = doc.new_object_id();
        let widgets: Vec<Object> = (0..50)
            .map(|_| {
                doc.add_object(dictionary! {
                    "Type" => "Annot", "Subtype" => "Widget", "Parent" => field,
                    "Rect" => vec![72.into(), 500.into(), 272.into(), 520.into()],
                })
                .into()
            })
            .collect();
        let options = vec![Object::string_literal(format!("{long}a")); 500];
        let values: Vec<Object> = (b'b'..b'r')
            .map(|c| Object::string_literal(format!("{long}{}", c as char)))
            .collect();
        doc.objects.insert(
            field,
            Object::Dictionary(dictionary! {
                "FT" => "Ch", "Ff" => COMBO, "DA" => Object::string_literal("/Helv 12 Tf"),
                "Opt" => options, "V" => values, "Kids" => widgets.clone(),
            }),
        );
        let annots = dictionary! { "Annots" => widgets };
        let page = crate::text::tests::one_page(&mut doc, b"", Dictionary::new(), annots);
        let never = || false;
        let mut reader = Interpreter::new(&doc, b"", crate::Limits::default(), &never);
        let text = reader.page(page).expect("read").text;
        // Compared on their first 4 KB, the values name the first option.
        assert_eq!(text.lines().filter(|l| l.starts_with("cccc")).count(), 50);
        assert_eq!(reader.choices.0.len(), 1);
    }

    #[test]
    fn reads_a_default_appearance_font() {
        assert_eq!(font_name(b"0 g /Helv 12 Tf"), Some(&b"Helv"[..]));
        assert_eq!(font_name(b"0 g 12 Tf"), None);
        assert_eq!(font_name(b""), None);
    }
}
