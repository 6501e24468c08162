// The document model and its two renderings: text from the pipeline file is
// shown, never run; headings get the same anchors in both; the appendix is
// collapsed on the page and last in the Markdown; the text measures count
// what a reader reads.
import test from 'ava';
import { figure, list, paragraph, section, sentences, table, type ReportDocument } from '../harness/document/document-model.js';
import { renderMarkdown } from '../harness/document/render-markdown.js';
import { renderHtmlBody } from '../harness/document/render-html.js';
import { firstWords, mainWordCount, repeatedSentences } from '../harness/document/document-text.js';
import { sectionIds, slug } from '../harness/document/heading-ids.js';
import { inlinePlain } from '../harness/document/inline-html.js';
import GithubSlugger from 'github-slugger';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const doc: ReportDocument = {
  title: 'Does `lazy` start faster?',
  opening: [paragraph('**Scope:** one host.'), table(['cohort', 'difference'], [['shell', '7.6 [5.7, 8.0]']], '**Answer.**')],
  sections: [
    ...section('Start-up times', [
      paragraph('A <script>alert(1)</script> and `<b>code</b>`.'),
      figure('ecdf-shell.svg', 'Ready ECDF'),
      ...section('Detail', [list(['one', 'two'])]),
    ]),
    ...section('Method', [paragraph('The same long sentence of more than twelve words appears here in the method section once.')]),
  ],
  appendix: [...section('Every cell', [table(['a | b', 'c'], [['1', '2']])])],
};

test('a section with nothing to say is left out, and sentences() drops empty parts', (t) => {
  t.deepEqual(section('Empty', [null, undefined, false]), []);
  t.deepEqual(section('Nested empty', [...section('Inner', [])]), []);
  t.deepEqual(sentences([null, 'A.', '', 'B.']), paragraph('A. B.'));
  t.is(sentences([null, '']), null);
});

test('HTML in document text is escaped, inside and outside code spans', (t) => {
  const html = renderHtmlBody(doc, () => '');
  t.false(html.includes('<script>'));
  t.true(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  t.true(html.includes('<code>&lt;b&gt;code&lt;/b&gt;</code>'));
});

test('the page puts the opening first, then a contents list whose links are the headings ids, and the appendix in a collapsed details', (t) => {
  const html = renderHtmlBody(doc, (f) => `<div data-src="${f.file}">${f.caption}</div>`);
  const nav = html.indexOf('<nav class="contents"');
  t.true(html.indexOf('<strong>Answer.</strong>') < nav);
  t.true(html.indexOf('<table>') < nav, 'the summary table comes before the contents list');
  const ids = [...html.slice(nav, html.indexOf('</nav>')).matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
  t.deepEqual(ids, ['start-up-times', 'method', 'appendix-every-cell']);
  for (const id of ids) t.true(html.includes(`id="${id}"`), id);
  t.regex(html, /<details id="appendix-every-cell"><summary>Appendix: Every cell<\/summary>/);
  t.true(html.includes('<div data-src="ecdf-shell.svg">Ready ECDF</div>'));
  t.true(html.includes('<h3 id="detail">'), 'a nested section is one level deeper');
});

test('the Markdown has the same order as the page, no contents line, and a literal bar escaped in a table cell', (t) => {
  const md = renderMarkdown(doc);
  t.true(md.startsWith('# Does `lazy` start faster?\n\n**Scope:** one host.\n\n**Answer.**\n\n| cohort | difference |'));
  t.false(md.includes('Contents:'), 'no contents line: the main text keeps its word budget, and a Markdown viewer lists the headings');
  t.true(md.includes('| shell | 7.6 [5.7, 8.0] |\n\n## Start-up times'), 'the opening runs straight into the first section');
  t.true(md.indexOf('## Method') < md.indexOf('## Appendix: Every cell'));
  t.true(md.includes('### Detail'));
  t.true(md.includes('| a \\| b | c |'));
  t.true(md.includes('![Ready ECDF](ecdf-shell.svg)'));
});

test('headings with the same title get distinct ids in document order', (t) => {
  const d: ReportDocument = {
    title: 't',
    opening: [],
    sections: [...section('A', [...section('Sessions', [paragraph('x')])]), ...section('Sessions', [paragraph('y')])],
    appendix: [],
  };
  t.deepEqual([...sectionIds(d).values()], ['a', 'sessions', 'sessions-1']);
  t.is(slug('Against the `source`: 2 parts'), 'against-the-source-2-parts');
});

test('heading ids are the ones GitHub gives the rendered Markdown (github-slugger), for every heading of every published report', (t) => {
  const titles = ["The source's claims against this run", 'Appendix: Every cell: naive/native', 'Sessions & host', 'numpy cold: oci-full − lazy (×0.4)'];
  for (const dir of readdirSync('reports')) {
    const md = join('reports', dir, 'report.md');
    if (existsSync(md)) titles.push(...[...readFileSync(md, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!));
  }
  t.true(titles.length > 20);
  for (const title of titles) t.is(slug(title), new GithubSlugger().slug(inlinePlain(title)), title);
  const d: ReportDocument = {
    title: 't',
    opening: [],
    sections: [...section('A', [paragraph('x')]), ...section('A', [paragraph('y')]), ...section('A', [paragraph('z')])],
    appendix: [],
  };
  const gh = new GithubSlugger();
  t.deepEqual(
    [...sectionIds(d).values()],
    ['A', 'A', 'A'].map((x) => gh.slug(x)),
  );
});

test('the main word count leaves out the appendix and counts table cells; firstWords reads in order', (t) => {
  const withoutAppendix = mainWordCount({ ...doc, appendix: [] });
  t.is(mainWordCount(doc), withoutAppendix);
  const bigger = mainWordCount({ ...doc, opening: [...doc.opening, table(['x'], [['one two three']])] });
  t.is(bigger - mainWordCount(doc), 4);
  t.true(firstWords(doc, 6).startsWith('Does lazy start faster? Scope: one'));
});

test('a sentence of more than twelve words said twice is found; a short repeated one is not', (t) => {
  const long = 'The same long sentence of more than twelve words appears here in the method section once.';
  t.deepEqual(repeatedSentences(doc), []);
  const twice: ReportDocument = { ...doc, appendix: [...section('Again', [paragraph(`${long} Short one. Short one.`)])] };
  t.deepEqual(repeatedSentences(twice), [long]);
});

test('a section named in quotes in the prose links to its heading, an appendix section by its own title too; other quotes and code spans stay as they are', (t) => {
  const refs: ReportDocument = {
    title: 'Refs',
    opening: [paragraph('See "Method" and the appendix "Every cell"; a "quoted" word and `"Method"` in code stay.')],
    sections: [...section('Method', [list(['as in "Appendix: Every cell"'])])],
    appendix: [...section('Every cell', [table(['a'], [['1']], 'Back to "Method".')])],
  };
  const md = renderMarkdown(refs);
  t.true(md.includes('See ["Method"](#method) and the appendix ["Every cell"](#appendix-every-cell); a "quoted" word and `"Method"` in code stay.'));
  t.true(md.includes('- as in ["Appendix: Every cell"](#appendix-every-cell)'));
  t.true(md.includes('Back to ["Method"](#method).'));
});
