// Plain words beside the thesis's terms, so a newcomer can read them: the clam's working state, Geo
// status and Load status (Table 2.4) as a trainee would say them, and a tooltip with what the term
// means. One table; the HUD (hud.js) shows it. Pure, no DOM.

// kind -> thesis term (as the frames spell it) -> [plain phrase, tooltip]
export const PLAIN_TERMS = Object.freeze({
  working: Object.freeze({
    Free: ['Jaws: free to swing open or shut',
      'Working state Free: the jaws are between their stops and hold nothing, so the two ropes decide how they move.'],
    Distributed: ['Ropes: both carrying',
      'Working state Distributed: the jaws are locked (on a stop or on a load) and both ropes share the weight.'],
    Full: ['Ropes: one carrying',
      'Working state Full: the jaws are locked and one rope (or none) carries the clam; the other is slack.'],
  }),
  geo: Object.freeze({
    'In-range': ['Jaws: part open',
      'Geo status In-range: the jaws are between fully open and fully closed.'],
    Open: ['Jaws: fully open',
      'Geo status Open: the jaws rest on their open stop. Reeling cable 1 in while paying cable 2 out opens them.'],
    Close: ['Jaws: fully closed',
      'Geo status Close: the jaws rest on their closed stop, nothing between them.'],
  }),
  load: Object.freeze({
    'Without-load': ['Jaws: empty',
      'Load status Without-load: nothing is held in the jaws.'],
    'With-load': ['Jaws: closed on a load',
      'Load status With-load: the jaws grip a load; its mass shows as Load (kg).'],
  }),
});

// Spellings differ between tools ("In-range", "InRange", "in range"): compare letters only.
const token = (s) => String(s).toLowerCase().replace(/[^a-z]/g, '');

// {term, plain, tip} for a frame's value of `kind` ('working', 'geo', 'load'); an unknown
// term is shown as it came, with no plain phrase.
export function plainTerm(kind, term) {
  if (term === undefined || term === null) return { term: '–', plain: '', tip: '' };
  const table = PLAIN_TERMS[kind] ?? {};
  for (const [name, [plain, tip]] of Object.entries(table)) {
    if (token(name) === token(term)) return { term: name, plain, tip };
  }
  return { term: String(term), plain: '', tip: '' };
}
