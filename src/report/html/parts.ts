/** Small HTML builders shared by the report sections. Every argument string is escaped here. */
import { escapeXml } from '../escape.js';
import type { Column } from '../scenario-rows.js';

/** Pre-rendered, trusted HTML (built by our own helpers): not escaped again. */
export interface Html {
  readonly html: string;
}

export const raw = (html: string): Html => ({ html });

/** Escapes text; passes Html through. */
export function h(content: string | number | Html): string {
  if (typeof content === 'object') return content.html;
  return escapeXml(String(content));
}

/** A status badge; an unknown status (a report from elsewhere) is shown escaped, styled as skip. */
export function badge(status: string): Html {
  const style = status === 'pass' || status === 'fail' ? status : 'skip';
  return raw(`<span class="badge ${style}">${escapeXml(status.toUpperCase())}</span>`);
}

export function section(id: string, title: string, body: string): string {
  return `<section id="${escapeXml(id)}"><h2>${escapeXml(title)}</h2>${body}</section>`;
}

/** A key/value grid (figures that are read, not compared). */
export function keyValues(entries: readonly (readonly [string, string | number | Html])[]): string {
  const items = entries.map(([key, value]) => `<div><dt>${h(key)}</dt><dd>${h(value)}</dd></div>`);
  return `<dl class="kv">${items.join('')}</dl>`;
}

export type { Column } from '../scenario-rows.js';

export function table(columns: readonly Column[], rows: readonly (readonly (string | number | Html)[])[], className = ''): string {
  const cls = (column: Column | undefined): string => (column?.numeric ? ' class="num"' : '');
  const head = columns.map((column) => `<th scope="col"${cls(column)}>${h(column.title)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell, i) => `<td${cls(columns[i])}>${h(cell)}</td>`).join('')}</tr>`).join('');
  return `<table${className ? ` class="${escapeXml(className)}"` : ''}><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** A chart with its caption and a text note under it; `svg` is trusted markup from the svg/ modules. */
export function figure(caption: string, svg: string, note = '', detail = ''): string {
  const sub = detail ? ` <span class="muted">${escapeXml(detail)}</span>` : '';
  const after = note ? `<p class="pcts">${escapeXml(note)}</p>` : '';
  return `<figure><figcaption>${escapeXml(caption)}${sub}</figcaption>${svg}${after}</figure>`;
}

export function grid(items: readonly string[]): string {
  return `<div class="grid">${items.join('')}</div>`;
}
