// Reference for tests/core/test_bid_message.py: JavaScript sorts the traits with its own
// string comparison (UTF-16 code units) and writes them with JSON.stringify.
// stdin: JSON array of cases, each an array of [trait_type, value]; stdout: one string each.
const input = require('fs').readFileSync(0, 'utf8');
const lists = JSON.parse(input);
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const out = lists.map(traits => JSON.stringify(
  traits.map(([t, v]) => ({trait_type: t, value: v}))
        .sort((a, b) => cmp(a.trait_type, b.trait_type) || cmp(a.value, b.value))));
process.stdout.write(JSON.stringify(out));
