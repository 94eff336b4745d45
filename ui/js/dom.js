// A tiny element builder: h('button', {class: 'x', onclick}, 'text', child…).

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'html') e.innerHTML = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  return add(e, ...children);
}

/**
 * Appends children as `h` does: nested arrays flattened, null/undefined/false left out (the DOM's
 * own `append` would write them as the text "null").
 */
export function add(e, ...children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** A single-choice group of toggle buttons (aria-pressed), keyboard-friendly. */
export function choiceGroup({ label, options, value, onChange, testid }) {
  const group = h('div', { class: 'choices', role: 'group', 'aria-label': label });
  for (const o of options) {
    const b = h('button', {
      type: 'button',
      class: 'choice',
      'aria-pressed': String(o.value === value),
      'data-testid': `${testid}-${o.value}`,
      onclick: () => {
        for (const x of group.children) x.setAttribute('aria-pressed', String(x === b));
        onChange(o.value);
      },
    }, o.icon ? h('span', { class: 'choice-icon', 'aria-hidden': 'true' }, o.icon) : null, h('span', {}, o.label), o.hint ? h('small', {}, o.hint) : null);
    group.append(b);
  }
  return group;
}
