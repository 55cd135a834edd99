// Small DOM helpers shared by the page's panels (hud.js, task-ui.js, trainee-ui.js).

// An element with attributes (`class`, `onclick`-style listeners, anything else as an
// attribute) and children (nodes or strings).
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

// Sets the text only when it changed: panels update at 20 Hz, and an unchanged write
// would still cost a layout.
export function setText(e, text) {
  if (e.textContent !== text) e.textContent = text;
}
