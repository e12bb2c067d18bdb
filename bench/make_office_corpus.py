#!/usr/bin/env python3
"""Makes the Office corpus bench/office_bench.rb converts (into tmp/office_corpus/,
which git ignores): realistic sizes, made with python-docx, openpyxl and
python-pptx, the same seed every run.

    /work/venvs/fixtures/bin/python bench/make_office_corpus.py [--out DIR] [--thirdparty SRC ...]

- generated/*.docx: 10-50 page reports (headings, paragraphs, bullet and
  numbered lists, a table every few pages)
- generated/*.xlsx: workbooks of 5,000-50,000 cells (numbers, text, dates,
  percentages, several sheets)
- generated/*.pptx: 20-slide decks (titles, bullets, a table, speaker notes)
- thirdparty/<name>/: the .docx/.xlsx/.pptx files found under each SRC folder
  given with --thirdparty (such as a checkout of calamine's tests/), copied
  as they are; see bench/README.md for the sources and their licenses.
"""

import argparse
import os
import random
import shutil
from datetime import date, datetime, timedelta

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORDS = ('market revenue quarter growth customer product team region north south budget plan risk cost '
         'supplier contract delivery schedule review forecast margin price volume share board meeting '
         'report analysis data system process quality service support project goal target result '
         'strategy investment capacity demand inventory order shipment invoice payment account policy').split()


def sentence(rng, low=6, high=18):
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    return ' '.join(words).capitalize() + '.'


def paragraph(rng):
    return ' '.join(sentence(rng) for _ in range(rng.randint(3, 7)))


def make_docx(path, pages, rng):
    import docx

    doc = docx.Document()
    doc.add_heading(f'Report {os.path.basename(path)}', 0)
    for page in range(pages):
        doc.add_heading(f'Section {page + 1}: {sentence(rng, 2, 4)[:-1]}', 1)
        for _ in range(rng.randint(2, 4)):
            doc.add_paragraph(paragraph(rng))
        if page % 2 == 0:
            doc.add_heading(sentence(rng, 2, 5)[:-1], 2)
            for _ in range(rng.randint(3, 6)):
                doc.add_paragraph(sentence(rng), style='List Bullet')
            for _ in range(rng.randint(2, 5)):
                doc.add_paragraph(sentence(rng), style='List Number')
        if page % 3 == 1:
            rows, cols = rng.randint(5, 12), rng.randint(3, 6)
            table = doc.add_table(rows=rows, cols=cols)
            for r in range(rows):
                for c in range(cols):
                    table.cell(r, c).text = rng.choice(WORDS) if r == 0 or c == 0 else f'{rng.uniform(0, 1e4):.2f}'
        doc.add_paragraph(paragraph(rng))
    doc.save(path)


def make_xlsx(path, cells, rng):
    import openpyxl

    wb = openpyxl.Workbook(write_only=True)
    sheets = rng.randint(1, 4)
    start = date(2020, 1, 1)
    for s in range(sheets):
        ws = wb.create_sheet(f'Sheet {s + 1}')
        cols = rng.randint(6, 20)
        ws.append([f'{rng.choice(WORDS)} {c}' for c in range(cols)])
        for r in range(cells // sheets // cols):
            row = []
            for c in range(cols):
                kind = c % 5
                if kind == 0:
                    row.append(start + timedelta(days=r))
                elif kind == 1:
                    row.append(rng.choice(WORDS))
                elif kind == 2:
                    row.append(round(rng.uniform(-1e5, 1e5), 2))
                elif kind == 3:
                    row.append(rng.randint(0, 10_000))
                else:
                    row.append(f'{rng.choice(WORDS)} {rng.choice(WORDS)} {r}')
            ws.append(row)
    wb.save(path)


def make_pptx(path, slides, rng):
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    first = prs.slides.add_slide(prs.slide_layouts[0])
    first.shapes.title.text = sentence(rng, 3, 6)[:-1]
    first.placeholders[1].text = sentence(rng, 4, 8)
    for n in range(1, slides):
        if n % 5 == 4:
            slide = prs.slides.add_slide(prs.slide_layouts[5])
            slide.shapes.title.text = sentence(rng, 2, 5)[:-1]
            rows, cols = rng.randint(4, 8), rng.randint(3, 5)
            table = slide.shapes.add_table(rows, cols, Inches(0.5), Inches(1.5), Inches(9), Inches(4)).table
            for r in range(rows):
                for c in range(cols):
                    table.cell(r, c).text = rng.choice(WORDS) if r == 0 else f'{rng.randint(0, 999)}'
        else:
            slide = prs.slides.add_slide(prs.slide_layouts[1])
            slide.shapes.title.text = sentence(rng, 2, 5)[:-1]
            body = slide.placeholders[1].text_frame
            body.text = sentence(rng, 4, 10)
            for _ in range(rng.randint(3, 6)):
                p = body.add_paragraph()
                p.text = sentence(rng, 4, 10)
                p.level = rng.choice((0, 0, 1))
        slide.notes_slide.notes_text_frame.text = paragraph(rng)
    prs.save(path)


def copy_thirdparty(sources, dest):
    for src in sources:
        name = os.path.basename(os.path.normpath(src))
        target = os.path.join(dest, name)
        os.makedirs(target, exist_ok=True)
        for folder, _, files in os.walk(src):
            for file in files:
                if file.lower().endswith(('.docx', '.xlsx', '.pptx')):
                    flat = os.path.relpath(os.path.join(folder, file), src).replace(os.sep, '_')
                    shutil.copyfile(os.path.join(folder, file), os.path.join(target, flat))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', default=os.path.join(ROOT, 'tmp/office_corpus'))
    parser.add_argument('--thirdparty', nargs='*', default=[])
    args = parser.parse_args()
    rng = random.Random(20260331)
    generated = os.path.join(args.out, 'generated')
    os.makedirs(generated, exist_ok=True)
    for i, pages in enumerate((10, 12, 15, 18, 20, 25, 30, 35, 40, 50)):
        make_docx(os.path.join(generated, f'report_{i:02}.docx'), pages, rng)
    for i, cells in enumerate((5_000, 8_000, 10_000, 15_000, 20_000, 25_000, 30_000, 40_000, 50_000, 50_000)):
        make_xlsx(os.path.join(generated, f'book_{i:02}.xlsx'), cells, rng)
    for i in range(8):
        make_pptx(os.path.join(generated, f'deck_{i:02}.pptx'), 20, rng)
    copy_thirdparty(args.thirdparty, os.path.join(args.out, 'thirdparty'))
    for folder, _, files in sorted(os.walk(args.out)):
        if files:
            size = sum(os.path.getsize(os.path.join(folder, f)) for f in files)
            print(f'{len(files):>4} files {size / 1e6:>8.1f} MB  {os.path.relpath(folder, ROOT)}')


if __name__ == '__main__':
    main()
