// The page's Markdown subset: text from the pipeline file is shown, never run.
import test from 'ava';
import { markdownToHtml, tableCells } from '../harness/report/markdown-html.js';

test('HTML in report text is escaped, inside and outside code spans', (t) => {
  const html = markdownToHtml('A <script>alert(1)</script> and `<b>code</b>`', () => '');
  t.false(html.includes('<script>'));
  t.true(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  t.true(html.includes('<code>&lt;b&gt;code&lt;/b&gt;</code>'));
});

test('a table cell keeps an escaped bar as a literal bar', (t) => {
  t.deepEqual(tableCells('| a \\| b | c |'), ['a | b', 'c']);
});

test('a figure line becomes whatever the page puts in its place', (t) => {
  const html = markdownToHtml('text\n\n![caption](plot.svg)\n\nmore', (alt, src) => `<div data-src="${src}">${alt}</div>`);
  t.true(html.includes('<div data-src="plot.svg">caption</div>'));
  t.true(html.includes('<p>text</p>') && html.includes('<p>more</p>'));
});
