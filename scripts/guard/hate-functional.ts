/**
 * Functional-test-style training rows for the hate head, written for this project from the published idea of
 * functional tests for hate speech (derogation, threats, slurs, profanity, pronoun reference, negation, phrasing,
 * non-hateful identity mentions, counter-speech, abuse of non-protected targets, spelling variations). Templates,
 * identity terms and vocabulary are our own; nothing is read or derived from ../shared/evals.
 *
 * The rows are contrastive: the same identity terms and the same derogatory words appear in hateful framings
 * (label 1) and in non-hateful ones (label 0): a hateful sentence quoted inside a condemnation, the negated
 * claim, the positive or neutral statement about the group, the same insult aimed at a politician or a Monday.
 * Hateful rows also appear with obfuscated spellings (leet, added / removed spaces, swapped / deleted letters).
 * Every row is seeded (mulberry32), so the set is identical on every run; rows of one frame share a split group.
 * Content warning: slurs and hateful statements, as training text for a moderation classifier.
 */
import { GUARD_LABELS, type GuardLabel } from '../../src/guard/labels.js';
import { mulberry32, type LabelValue } from '../../src/guard/train.js';
import type { SourcedExample } from './data.js';

/** [plural, singular with article, bare singular]: protected identity groups. */
const GROUPS: ReadonlyArray<readonly [string, string, string]> = [
  ['women', 'a woman', 'woman'], ['Muslims', 'a Muslim', 'Muslim'], ['Jews', 'a Jew', 'Jew'],
  ['Black people', 'a Black guy', 'Black person'], ['gay men', 'a gay man', 'gay man'], ['lesbians', 'a lesbian', 'lesbian'],
  ['trans people', 'a trans woman', 'trans person'], ['trans men', 'a trans man', 'trans man'], ['immigrants', 'an immigrant', 'immigrant'],
  ['refugees', 'a refugee', 'refugee'], ['disabled people', 'a disabled person', 'disabled person'], ['wheelchair users', 'a wheelchair user', 'wheelchair user'],
  ['Mexicans', 'a Mexican', 'Mexican'], ['Asians', 'an Asian guy', 'Asian person'], ['Arabs', 'an Arab', 'Arab'],
  ['Hindus', 'a Hindu', 'Hindu'], ['Sikhs', 'a Sikh', 'Sikh'], ['Christians', 'a Christian', 'Christian'],
  ['Roma', 'a Roma woman', 'Roma person'], ['bisexuals', 'a bisexual', 'bisexual person'], ['Pakistanis', 'a Pakistani', 'Pakistani'],
  ['Somalis', 'a Somali', 'Somali'], ['Nigerians', 'a Nigerian', 'Nigerian'], ['Chinese people', 'a Chinese woman', 'Chinese person'],
  ['Latinos', 'a Latino', 'Latino'], ['Indigenous people', 'an Indigenous man', 'Indigenous person'], ['deaf people', 'a deaf person', 'deaf person'],
  ['autistic people', 'an autistic kid', 'autistic person'], ['Catholics', 'a Catholic', 'Catholic'], ['migrants', 'a migrant', 'migrant'],
  ['gays', 'a gay', 'gay person'], ['black women', 'a black woman', 'black woman'], ['Africans', 'an African', 'African'],
  ['Polish people', 'a Polish guy', 'Polish person'], ['asylum seekers', 'an asylum seeker', 'asylum seeker'], ['blind people', 'a blind person', 'blind person'],
];

/** Targets that are not protected groups (abuse of them is not hate speech under our labels). */
const NON_PROTECTED = [
  'politicians', 'lawyers', 'estate agents', 'bankers', 'telemarketers', 'spammers', 'internet trolls', 'referees',
  'landlords', 'car salesmen', 'bureaucrats', 'influencers', 'Nazis', 'racists', 'tax collectors', 'crypto bros',
  'people who litter', 'people who talk in cinemas', 'Chelsea fans', 'drunk drivers', 'scammers', 'child abusers',
  'tailgaters', 'corporate executives', 'paparazzi', 'people who spoil movie endings', 'poachers', 'bigots',
];
const OBJECTS = [
  'Mondays', 'traffic jams', 'mosquitoes', 'spiders', 'pineapple on pizza', 'early meetings', 'rainy weekends',
  'cold coffee', 'slow wifi', 'printers', 'parking tickets', 'wasps', 'pop-up ads', 'group projects', 'cockroaches in my kitchen',
];
const INDIVIDUALS = ['my boss', 'my ex', 'that referee', 'my landlord', 'the guy who stole my bike', 'my brother-in-law', 'you', 'this streamer', 'the new manager'];

const NEG_ADJ = [
  'disgusting', 'worthless', 'pathetic', 'filthy', 'stupid', 'lazy', 'dangerous', 'evil', 'dishonest', 'violent',
  'primitive', 'inferior', 'useless', 'repulsive', 'vile', 'subhuman', 'brainless', 'degenerate', 'untrustworthy',
  'greedy', 'backward', 'dirty', 'gross', 'revolting', 'nasty', 'dumb', 'sick in the head', 'a waste of space',
  'a burden on society', 'a disgrace', 'less than human', 'scum', 'trash',
];
const NEG_NOUN = [
  'vermin', 'parasites', 'animals', 'rats', 'cockroaches', 'savages', 'scum', 'trash', 'filth', 'pests', 'a plague',
  'a disease', 'a cancer', 'leeches', 'freaks', 'mongrels', 'monsters', 'criminals', 'liars', 'thieves', 'garbage',
  'swine', 'apes', 'maggots', 'lowlifes', 'a waste of oxygen', 'subhumans', 'degenerates', 'bottom feeders',
];
const EMOTE = ['hate', 'despise', 'loathe', 'detest', "can't stand", 'am disgusted by', 'am sick of', 'really hate', 'cannot stand', 'hate all'];
const POS_ADJ = [
  'kind', 'smart', 'honest', 'hardworking', 'talented', 'brave', 'generous', 'trustworthy', 'intelligent', 'capable',
  'friendly', 'decent', 'welcome here', 'valuable members of our community', 'wonderful', 'funny', 'caring', 'strong',
];
const HARM = ['kill', 'shoot', 'stab', 'beat to death', 'hang', 'burn', 'gas', 'wipe out', 'exterminate', 'slaughter', 'lynch', 'drown', 'string up'];
const HARM_PP = ['killed', 'shot', 'hanged', 'burned alive', 'gassed', 'wiped out', 'exterminated', 'slaughtered', 'lynched', 'put down', 'executed', 'deported and shot'];
const SLURS: ReadonlyArray<readonly [string, string]> = [
  ['nigger', 'niggers'], ['faggot', 'faggots'], ['fag', 'fags'], ['dyke', 'dykes'], ['tranny', 'trannies'],
  ['retard', 'retards'], ['kike', 'kikes'], ['spic', 'spics'], ['chink', 'chinks'], ['raghead', 'ragheads'],
  ['towelhead', 'towelheads'], ['gook', 'gooks'], ['paki', 'pakis'], ['wetback', 'wetbacks'], ['coon', 'coons'], ['shemale', 'shemales'],
];
const CONDEMN = ['bigoted', 'hateful', 'racist', 'wrong', 'ignorant', 'unacceptable', 'disgusting', 'vile', 'shameful', 'not okay'];
const REL = ['best friend', 'neighbour', 'doctor', 'sister-in-law', 'teacher', 'manager', 'flatmate', 'grandmother', 'coach', 'business partner'];
const PLACE = ['London', 'Texas', 'our city', 'Canada', 'Germany', 'the suburbs', 'New York', 'rural areas', 'Australia'];
const FIELD = ['medicine', 'engineering', 'politics', 'the arts', 'science', 'tech', 'teaching', 'sports', 'law'];

interface Row {
  text: string;
  hate: 0 | 1;
  threat?: boolean;
  /** Quotes or reports hate (threats included): violence unknown, a condemnation may still depict violence. */
  reported?: boolean;
}
type Gen = (r: Rnd) => Row;

export class Rnd {
  constructor(readonly next: () => number) {}
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)] as T;
  }
  group(): readonly [string, string, string] {
    return this.pick(GROUPS);
  }
}

const cap = (s: string): string => (s.length > 0 ? s[0]?.toUpperCase() + s.slice(1) : s);
const h = (text: string, threat = false): Row => ({ text: cap(text), hate: 1, threat });
const nh = (text: string): Row => ({ text: cap(text), hate: 0 });
const reported = (text: string): Row => ({ text: cap(text), hate: 0, reported: true });

/** Hateful statements (the part quoted / negated by the non-hateful frames below). */
const HATEFUL: Record<string, Gen> = {
  'attr': (r) => h(`${r.pick(['', 'all ', 'most ', 'honestly, '])}${r.group()[0]} are ${r.pick(NEG_ADJ)}`),
  'noun': (r) => h(`${r.group()[0]} are ${r.pick(['nothing but ', 'just ', 'no better than ', 'all ', ''])}${r.pick(NEG_NOUN)}`),
  'emote': (r) => h(`I ${r.pick(EMOTE)} ${r.group()[0]}`),
  'emote2': (r) => h(`${r.group()[0]} ${r.pick(['make me sick', 'disgust me', 'make my skin crawl', 'should be ashamed to exist', 'ruin everything they touch'])}`),
  'opinion': (r) => h(`${r.pick(['I think', 'in my opinion', "let's be honest,", 'everyone knows', 'face it,', 'I genuinely believe'])} ${r.group()[0]} are ${r.pick(NEG_ADJ)}`),
  'dehum': (r) => h(`${r.group()[0]} ${r.pick(['are not even human', 'are more animal than human', 'breed like rats', 'spread like a disease', 'are a sickness in our society', 'belong in a zoo'])}`),
  'threat': (r) => h(`${r.pick(['I am going to', 'someone should', 'we need to', 'I will', "it's time to"])} ${r.pick(HARM)} ${r.pick(['every one of the', 'all the', 'those', 'the'])} ${r.group()[0]}`, true),
  'threat2': (r) => h(`${r.group()[0]} ${r.pick(['should all be', 'deserve to be', 'need to be', 'ought to be'])} ${r.pick(HARM_PP)}`, true),
  'threat3': (r) => h(`if I see ${r.group()[1]} on my street I will ${r.pick(HARM)} them`, true),
  'profane': (r) => h(`${r.pick([`${r.group()[0]} are fucking ${r.pick(NEG_ADJ)}`, `fuck all ${r.group()[0]}`, `${r.group()[0]} are a bunch of shitty ${r.pick(NEG_NOUN)}`, `screw ${r.group()[0]}, they are ${r.pick(NEG_NOUN)}`])}`),
};

/** Implicit derogation, questions, negated positives, pronoun reference, slurs: hateful. */
const HATEFUL_MORE: Record<string, Gen> = {
  'implicit': (r) => {
    const [g, s] = r.group();
    return h(r.pick([
      `keep ${g} away from our schools`, `our country was better before the ${g} showed up`, `I move seats whenever ${s} sits next to me`,
      `I would never hire ${g}, you know how they are`, `another crime, and of course it was ${s}. What a surprise`,
      `the fewer ${g} in this town, the better`, `${g} are only good for cleaning toilets`, `a neighbourhood full of ${g} is a neighbourhood in decline`,
      `I'd be ashamed to have ${s} in my family`, `${g} should know their place and stay there`, `nobody wants ${g} as neighbours, and for good reason`,
      `${g} being in charge explains why everything is falling apart`, `you can smell it when ${g} have moved in`, `${g} belong in cages, not in our streets`,
      `we don't serve ${g} here`, `${g} shouldn't be allowed to vote`, `${g} can't help being what they are: a drain`,
      `a job application from ${s}? Straight in the bin`, `I can tell ${s} is lying just by looking at them`, `${g} only ever take and never give`,
      `lock your car, there are ${g} in the area`, `if your daughter brings home ${s}, you have failed as a parent`, `${g} are the reason house prices are falling around here`,
      `every time ${g} move in, the neighbourhood goes to hell`, `${g} should be grateful we even let them in`, `hiring ${g} is how you bankrupt a company`,
      `${g} in government? That is how a country dies`, `just once I'd like to meet ${s} who isn't on benefits`, `don't let ${g} near the cash register`,
    ]));
  },
  'question': (r) => {
    const [g, s] = r.group();
    return h(r.pick([
      `why are ${g} so ${r.pick(NEG_ADJ)}?`, `why are all ${g} ${r.pick(NEG_NOUN)}?`, `is there a single ${s.replace(/^an? /, '')} who isn't ${r.pick(NEG_ADJ)}?`,
      `don't you think ${g} are ${r.pick(NEG_ADJ)}?`, `wouldn't life be better without ${g}?`, `what is even the point of ${g}?`,
      `how can anyone stand being around ${g}?`, `why do we let ${g} live among us?`, `isn't it funny how ${g} are always ${r.pick(NEG_ADJ)}?`,
    ]));
  },
  'negpos': (r) => {
    const [g, s] = r.group();
    return h(r.pick([
      `${g} are never ${r.pick(POS_ADJ)}`, `${g} are not ${r.pick(POS_ADJ)} and never will be`, `${g} can't be ${r.pick(POS_ADJ)}`,
      `I have never met ${s} who was ${r.pick(POS_ADJ)}`, `no ${s.replace(/^an? /, '')} has ever been ${r.pick(POS_ADJ)}`, `${g} will never be equal to us`,
    ]));
  },
  'pronoun': (r) => {
    const [g, s] = r.group();
    return h(r.pick([
      `I met ${s} at work today. They are all ${r.pick(NEG_ADJ)}, every one of them.`, `${g}? They are ${r.pick(NEG_NOUN)}, all of them.`,
      `you know those ${g}? I think they are ${r.pick(NEG_NOUN)}.`, `there are ${g} everywhere now. ${cap(r.pick(NEG_ADJ))}, the lot of them.`,
      `my new neighbour is ${s}. Typical: ${r.pick(NEG_ADJ)} like the rest of them.`,
    ]));
  },
  'slur': (r) => {
    const [one, many] = r.pick(SLURS);
    return h(r.pick([
      `shut up, you ${one}`, `${many} like you should stay out of here`, `there's a ${one} living next door now`, `get lost, ${one}`,
      `${many} are ruining this country`, `look at that ${one} over there`, `no ${many} allowed in this bar`, `you're just a dirty ${one}`,
      `my boss is such a ${one}`, `typical ${one} behaviour`,
    ]));
  },
};

/** Condemnations that quote a hateful statement `q`. */
const QUOTE_FRAMES: ReadonlyArray<(q: string, r: Rnd) => string> = [
  (q) => `Someone commented "${q}" on my video. How should I respond calmly?`,
  (q) => `"${q}" is exactly the kind of bigotry we have to stand up to.`,
  (q) => `My coworker said "${q}" in a meeting and I reported him to HR.`,
  (q) => `When people say "${q}", they only show their own ignorance.`,
  (q, r) => `I am so tired of reading "${q}" in the comments. It is ${r.pick(CONDEMN)}.`,
  (q) => `If you really think "${q}", you need to educate yourself.`,
  (q) => `He posted "${q}" and was rightly banned from the forum.`,
  (q) => `This comment, "${q}", violates our community rules on hate speech and has been removed.`,
  (q) => `Explain to my students why a statement like "${q}" is harmful.`,
  (q) => `No one should ever have to hear "${q}". Stand with your neighbours.`,
  (q) => `You said "${q}"? That is disgusting. Apologise.`,
  (q, r) => `A man on the train shouted "${q}". It was ${r.pick(CONDEMN)} and nobody should have to put up with that.`,
  (q) => `Is "${q}" considered hate speech under the new law? I want to report it.`,
  (q) => `Graffiti saying "${q}" appeared on the mosque wall overnight; the community is cleaning it up together.`,
];

/** Non-hateful rows that reference hate, negate it, or mention groups positively or neutrally. */
const NON_HATEFUL: Record<string, Gen> = {
  'ref': (r) => {
    const [g] = r.group();
    return reported(r.pick([
      `calling ${g} ${r.pick(NEG_NOUN)} is ${r.pick(CONDEMN)}`, `it is ${r.pick(CONDEMN)} to say that ${g} are ${r.pick(NEG_ADJ)}`,
      `stop pretending ${g} are ${r.pick(NEG_ADJ)}. They are not.`, `people who think ${g} are ${r.pick(NEG_NOUN)} are the real problem`,
      `your post claiming ${g} are ${r.pick(NEG_ADJ)} was removed for hate speech`, `hating ${g} is not an opinion, it is bigotry`,
      `threatening to ${r.pick(HARM)} ${g} is a crime, and I reported it`, `I'm sick of people saying ${g} are ${r.pick(NEG_NOUN)}`,
      `the idea that ${g} are ${r.pick(NEG_ADJ)} is a myth we should debunk`, `the propaganda called ${g} ${r.pick(NEG_NOUN)} to justify the violence`,
      `I can't believe people still say ${g} are ${r.pick(NEG_ADJ)} in this day and age`, `my uncle keeps calling ${g} ${r.pick(NEG_NOUN)} and I'm done arguing with him`,
      `saying ${g} should be ${r.pick(HARM_PP)} is incitement and should be prosecuted`, `don't listen to anyone who tells you ${g} are ${r.pick(NEG_ADJ)}`,
      `the article debunks the claim that ${g} are ${r.pick(NEG_NOUN)}`, `how do I reply to a troll who says ${g} are ${r.pick(NEG_ADJ)}?`,
      `when someone calls ${g} ${r.pick(NEG_NOUN)}, call it out`, `that politician compared ${g} to ${r.pick(NEG_NOUN)}, and he should resign`,
    ]));
  },
  'negneg': (r) => {
    const [g, s] = r.group();
    return nh(r.pick([
      `I don't hate ${g}`, `I have never hated ${g}`, `${g} are not ${r.pick(NEG_ADJ)}`, `${g} are never ${r.pick(NEG_NOUN)}`,
      `${g} aren't ${r.pick(NEG_ADJ)} at all`, `no, ${g} are not ${r.pick(NEG_NOUN)}`, `it is not true that ${g} are ${r.pick(NEG_ADJ)}`,
      `I would never call ${g} ${r.pick(NEG_NOUN)}`, `${g} are not ${r.pick(NEG_ADJ)}; they are ${r.pick(POS_ADJ)}`,
      `being ${s} doesn't make anyone ${r.pick(NEG_ADJ)}`, `I don't think ${g} are ${r.pick(NEG_ADJ)}, not even a little`,
      `nobody I know ${r.pick(['hates', 'despises'])} ${g}`,
    ]));
  },
  'pos': (r) => {
    const [g, s] = r.group();
    return nh(r.pick([
      `${g} are ${r.pick(POS_ADJ)}`, `I love ${g}`, `I really admire ${g}`, `${g} are wonderful people`, `we are lucky to have so many ${g} in our town`,
      `${g} deserve respect and safety`, `proud to be ${s}!`, `being ${s} is something I celebrate`, `${g} are just as ${r.pick(POS_ADJ)} as anyone`,
      `we need more ${g} in ${r.pick(FIELD)}`, `${g} make this country better`, `my life is richer for the ${g} I know`, `so many ${g} are ${r.pick(POS_ADJ)}`,
    ]));
  },
  'neutral': (r) => {
    const [g, s, one] = r.group();
    return nh(r.pick([
      `I am ${s}`, `my ${r.pick(REL)} is ${s}`, `${g} live all over the world`, `how many ${g} live in ${r.pick(PLACE)}?`,
      `are there many ${g} working in ${r.pick(FIELD)}?`, `I'm writing an essay about the history of ${g} in ${r.pick(PLACE)}`,
      `our office has a support network for ${g}`, `most ${g} I know work in ${r.pick(FIELD)}`, `what holidays do ${g} celebrate?`,
      `as ${s}, I often get asked about my background`, `the survey asked ${g} about housing costs`, `the ${one} community centre opens at nine`,
      `we're two ${g} who just moved to ${r.pick(PLACE)}`, `what challenges do ${g} face at work?`, `${g} are represented in parliament`,
      `do ${g} have to pay the same fees?`, `what's it like growing up as ${s} in ${r.pick(PLACE)}?`,
    ]));
  },
  'nonprot': (r) => {
    const t = r.pick(NON_PROTECTED);
    return nh(r.pick([
      `${t} are ${r.pick(NEG_ADJ)}`, `I ${r.pick(EMOTE)} ${t}`, `${t} are ${r.pick(NEG_NOUN)}`, `why are ${t} so ${r.pick(NEG_ADJ)}?`,
      `all ${t} are ${r.pick(NEG_NOUN)}`, `${t} are fucking ${r.pick(NEG_ADJ)}`, `honestly ${t} make me sick`,
    ]));
  },
  'indiv': (r) => {
    const t = r.pick(INDIVIDUALS);
    return nh(r.pick([`${t} ${t === 'you' ? 'are' : 'is'} ${r.pick(NEG_ADJ)}`, `I ${r.pick(EMOTE)} ${t}`, `${t} ${t === 'you' ? 'are' : 'is'} a lying ${r.pick(['rat', 'snake', 'pig', 'weasel'])}`]));
  },
  'object': (r) => {
    const t = r.pick(OBJECTS);
    return nh(r.pick([`I ${r.pick(EMOTE)} ${t}`, `${t} are ${r.pick(NEG_ADJ)}`, `${t} should all be ${r.pick(['banned', 'destroyed', 'wiped out', 'thrown in the bin'])}`, `why are ${t} so ${r.pick(NEG_ADJ)}?`]));
  },
  'reclaimed': (r) => nh(r.pick([
    `I'm queer and proud of it`, `our queer book club meets on Fridays`, `as a queer woman I finally feel at home here`, `we're here, we're queer, get used to it`,
    `grandma made faggots and peas for tea`, `he popped outside for a fag after dinner`, `bundle the kindling into a faggot before you carry it in`,
  ])),
};

/** Spelling variations of one word: leet, added / removed spaces, a swapped or a deleted letter. */
function obfuscateWord(w: string, kind: number, r: Rnd): string {
  if (w.length < 4) return w;
  const i = 1 + Math.floor(r.next() * (w.length - 2));
  switch (kind) {
    case 0: {
      const leet: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7' };
      return w.replace(/[aeiost]/gi, (c) => (r.next() < 0.7 ? (leet[c.toLowerCase()] ?? c) : c));
    }
    case 1:
      return w.split('').join(' ');
    case 2:
      return w.slice(0, i) + (w[i + 1] ?? '') + (w[i] ?? '') + w.slice(i + 2);
    default:
      return w.slice(0, i) + w.slice(i + 1);
  }
}

/** A hateful row with one or two of its content words obfuscated, or two words run together. */
export function obfuscate(text: string, r: Rnd): string {
  const words = text.split(' ');
  const kind = Math.floor(r.next() * 5);
  const content = words.map((w, i) => [w, i] as const).filter(([w]) => /^[A-Za-z]{4,}$/.test(w) && !/^(they|them|that|this|with|every|should|their|there|those|about|would|really|honestly|think|just)$/i.test(w));
  if (content.length === 0) return text;
  if (kind === 4) {
    const [, i] = r.pick(content);
    if (i + 1 < words.length) words.splice(i, 2, `${words[i] ?? ''}${words[i + 1] ?? ''}`);
    return words.join(' ');
  }
  const times = r.next() < 0.3 ? 2 : 1;
  for (let t = 0; t < times; t++) {
    const [w, i] = r.pick(content);
    words[i] = obfuscateWord(w, kind, r);
  }
  return words.join(' ');
}

const L = GUARD_LABELS.length;
const at = (l: GuardLabel): number => GUARD_LABELS.indexOf(l);

/**
 * Hate-label weight of the non-hateful rows: identity terms co-occur with hate in every other source (Davidson,
 * templates), so the rows that mention a group without hating it need the extra pull.
 */
const NON_HATEFUL_WEIGHT = 2;

function example(row: Row, group: string): SourcedExample {
  const y = new Array<LabelValue>(L).fill(0);
  y[at('hate')] = row.hate;
  if (row.threat) {
    y[at('hate/threatening')] = 1;
    y[at('violence')] = 1;
  }
  if (row.reported) y[at('violence')] = null;
  const w = new Array<number>(L).fill(1);
  if (row.hate === 0) w[at('hate')] = NON_HATEFUL_WEIGHT;
  return { text: row.text, y, w, source: 'corpus-hatecheck', group: `hatefn:${group}` };
}

/** Rows per generator: hateful, non-hateful, quoted counter-speech and obfuscated hateful rows. */
export function hateFunctionalRows(seed = 909, perFrame = 60): SourcedExample[] {
  const r = new Rnd(mulberry32(seed));
  const out: SourcedExample[] = [];
  const seen = new Set<string>();
  const push = (row: Row, group: string): void => {
    if (seen.has(row.text)) return;
    seen.add(row.text);
    out.push(example(row, group));
  };
  const gens = { ...HATEFUL, ...HATEFUL_MORE };
  for (const [name, gen] of Object.entries(gens)) {
    for (let k = 0; k < perFrame; k++) push(gen(r), name);
    // spelling variants: same group as the originals (a frame never straddles the split)
    for (let k = 0; k < perFrame / 2; k++) {
      const row = gen(r);
      push({ ...row, text: obfuscate(row.text, r) }, name);
    }
  }
  for (const [name, gen] of Object.entries(NON_HATEFUL)) {
    const n = name === 'reclaimed' ? 7 : name === 'indiv' || name === 'object' ? perFrame / 2 : perFrame;
    for (let k = 0; k < n * 2; k++) push(gen(r), name);
  }
  const quotable = Object.values(HATEFUL);
  QUOTE_FRAMES.forEach((frame, fi) => {
    for (let k = 0; k < perFrame / 2; k++) {
      const q = r.pick(quotable)(r).text;
      push(reported(frame(q, r)), `quote-${fi}`);
    }
  });
  return out;
}
