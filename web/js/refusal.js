// A live connection the server refused (WebSocket close 1008, policy) is not a lost
// connection: the same URL would be refused again, so the page stops and says what to do.
// For an unknown ?scenario= or ?model= it offers the names the server has (client-config's
// lists), each as a link to this page with that name. Pure, for the node tests; the glue
// is showRefusal.

import { el } from './dom.js';

// What the page shows for a refusal `reason` (the close reason): { text, choices }, each
// choice { name, href } (this page's URL with the parameter set to the name).
export function describeRefusal(reason, { scenarios = [], models = [] } = {}, pageUrl) {
  const text = `Refused by the server: ${reason || 'no reason given'}.`;
  // the reason's own list of names ("; the scenarios: ...") gives way to the links
  const named = `Refused by the server: ${(reason ?? '').split('; the ')[0]}.`;
  const offer = (param, names, what) => ({
    text: `${named} Choose one of the ${what} below, or correct ?${param}= in the address.`,
    choices: names.map((name) => {
      const u = new URL(pageUrl);
      u.searchParams.set(param, name);
      return { name, href: u.toString() };
    }),
  });
  if (/^unknown scenario\b/.test(reason ?? '') && scenarios.length) return offer('scenario', scenarios, 'scenarios');
  if (/^unknown model\b/.test(reason ?? '') && models.length) return offer('model', models, 'models');
  return { text: `${text} Reloading the page will not help; ask whoever runs the server.`, choices: [] };
}

// Fills `box` (a hidden element) with the refusal and shows it.
export function showRefusal(box, { text, choices }) {
  box.replaceChildren(el('p', {}, text));
  if (choices.length) box.append(el('ul', {}, ...choices.map((c) => el('li', {}, el('a', { href: c.href }, c.name)))));
  box.hidden = false;
}
