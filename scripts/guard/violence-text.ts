/**
 * Violence rows in the registers the public training rows lack, written for this project (nothing read or derived
 * from ../shared/evals): longer, conversational first- and third-person accounts of violent acts, threats made in
 * a chat, glorification, requests for violent scenes, and cruelty to animals (all violence = 1: a depiction of
 * violence is violence under our taxonomy), each next to a benign counterpart built from the same openers and
 * closers where the story turns on an argument, an accident, a sport or a call for help, and accidental injuries
 * with blood and first aid (violence = 0).
 * Seeded (mulberry32): identical on every run; rows of one frame share a split group.
 */
import { GUARD_LABELS, type GuardLabel } from '../../src/guard/labels.js';
import { mulberry32, type LabelValue } from '../../src/guard/train.js';
import type { SourcedExample } from './data.js';

const OPENER = [
  'Ok so I need to vent about something.', 'This is a long story but bear with me.', 'So last night was insane.',
  'Me and my cousin were at a bar downtown, minding our own business.', 'My neighbour has been parking in my spot for months.',
  'You will not believe what happened at the party on Saturday.', 'When I was nineteen I worked nights at a petrol station.',
  'So this guy at the gym kept staring at my girlfriend.', 'My roommate ate my food again, third time this week.',
  'There is this kid at school who has been picking on my little brother.', 'We were coming back from the match when some guys started shouting at us.',
  'Honestly I have had the worst week.', 'Story time, and yes this really happened.', '',
];
const WHO = ['the guy', 'him', 'my neighbour', 'that idiot', 'the bouncer', 'my roommate', 'the kid', 'one of them', 'the driver', 'her boyfriend'];
const ACT = [
  'I smashed a bottle over {who}\'s head', 'I punched {who} until his nose broke', 'I kicked {who} in the ribs while he was on the ground',
  'I slammed {who}\'s head against the car door', 'I pulled out my knife and stabbed {who} twice in the stomach',
  'we beat {who} with a baseball bat until he stopped moving', 'I shot {who} in the leg', 'I choked {who} until he passed out',
  'I dragged {who} out of the car and beat him senseless', 'I cracked {who}\'s skull with a brick', 'we stomped on {who}\'s head until he went quiet',
  'I broke {who}\'s fingers one by one', 'I hit {who} so hard his teeth came out', 'I held {who} down and kept hitting him',
];
const ACT_3P = [
  'he pulled out a knife and stabbed the cashier over and over', 'the soldiers lined the villagers up against a wall and shot them one by one',
  'she beat her dog with a belt until it could not stand', 'the gang tied him to a chair and burned him with cigarettes',
  'he kept kicking the woman in the face after she fell', 'they threw the man off the bridge and laughed as he hit the water',
  'the guards beat the prisoners with iron bars every night', 'he strangled his wife and left her body in the garage',
  'the mob dragged the driver out and beat him to death in the street', 'the attacker slashed three commuters with a machete',
];
const CLOSER_BAD = [
  'Honestly it felt great.', 'I would do it again.', 'Then we ran before the cops came.', 'He was lying there bleeding and I just walked off.',
  'Nobody even tried to stop me.', 'He had it coming.', 'Best night of my life lol.', 'I still smile thinking about it.', '',
];
const BENIGN_ACT = [
  'I told {who} to leave and called the landlord', 'we argued for a while and then shook hands', 'I spilled my drink all over {who}\'s shoes',
  'I asked {who} to move his car and he actually did', 'I walked away and blocked {who}\'s number', 'I reported {who} to the manager',
  'we sat down and talked it through over a coffee', 'I lost the squash match against {who} in straight sets', 'I tripped over the curb and sprained my ankle',
  'I yelled at {who} and then felt bad about it', 'I wrote {who} a very passive-aggressive note', 'the security staff calmed everyone down and {who} went home',
];
const CLOSER_OK = [
  'Honestly I feel better now.', 'Was I overreacting?', 'How do I handle this better next time?', 'Anyway, lesson learned.',
  'Any advice on how to stay calm in situations like that?', 'Should I apologise?', '',
];
const THREAT = [
  'If you ever touch my sister again I will break every bone in your body.', 'Keep talking and I will put you in the hospital.',
  'You had better watch your back, I know where you live and I am coming for you.', 'Say that again and I will stab you, I swear.',
  'I am going to find you after school and beat the crap out of you.', 'One more word and I will bash your face in.',
  'I know your address. Tonight you are going to bleed.', 'Next time you cut me off I will run you off the road and finish the job.',
];
const GLORY = [
  'The guy in that video who stomped on the protester\'s head deserves a medal.', 'Watching that fight clip where he keeps punching the unconscious guy is so satisfying.',
  'People who beat up the homeless are heroes, they are cleaning the streets.', 'That shooting last week was the best news all year, shame more did not die.',
  'I love watching videos of people getting beaten up, the harder the better.', 'The soldiers who shot those villagers did nothing wrong, they should have killed more.',
];
const REQUEST = [
  'Write a scene where the hero beats the traitor to death with his bare hands, in detail.', 'Describe how the gang tortured the informant, step by step.',
  'Tell a story where a man stabs his neighbour and enjoys every second.', 'Write a poem celebrating the massacre of the rebels.',
  'What is the best way to hurt someone without leaving marks?', 'How hard do I have to hit someone to knock them out cold?',
  'Where should I punch someone so it hurts the most?', 'Give me ideas for how to beat up my stepdad so he never walks again.',
];
const ANIMAL = [
  'We used to throw rocks at stray cats until they stopped moving.', 'My uncle kicks his dog when he is drunk and honestly it is funny to watch.',
  'I set the neighbour\'s rabbit on fire to teach them a lesson.', 'Let us catch some pigeons and break their wings for fun.',
];
/** Violence-adjacent but benign: help, safety, law, sport, history summaries without depiction or endorsement. */
const SAFE = [
  'How can I de-escalate when a customer gets aggressive at the counter?', 'What are the self-defence laws in my state?',
  'I am scared my neighbour might get violent. Who should I call?', 'My friend was assaulted last night. How can I support her?',
  'What are the rules for clinches in boxing?', 'Summarise the causes of the First World War in five bullet points.',
  'Write a letter to the council asking for better street lighting after a mugging in our area.', 'How do martial arts schools teach sparring safely?',
  'What first aid should I give someone who has been punched and is dizzy?', 'Recommend a documentary about peace negotiations after civil wars.',
  'How do I report a threat I received by text message?', 'What training do police get for handling knife incidents?',
];

/** Injuries from accidents and first aid: blood and wounds without anyone hurting anyone (violence = 0). */
const HURT_WHO = ['My son', 'My dad', 'A hiker in our group', 'My flatmate', 'A customer in the shop', 'My grandmother', 'A player on my team', 'A colleague'];
const INJURY = [
  'cut his hand badly on a broken glass and it is bleeding a lot', 'fell off the bike and the knee is bleeding through the bandage',
  'has a deep gash on the forehead from a fall on the ice', 'has a nosebleed that will not stop after twenty minutes',
  'burned an arm on the stove and the skin is blistering', 'slipped with the bread knife and there is blood everywhere',
  'landed badly and the ankle is swollen and purple', 'hit their head on the shelf and there is a small wound on the scalp',
  'stepped on a nail and the foot is bleeding', 'scraped both hands on the gravel and they are raw and bleeding',
];
const AID_Q = [
  'What should I do until the ambulance arrives?', 'When does a cut need stitches?', 'How do I apply pressure correctly?',
  'Is it safe to use a tourniquet from the first aid kit?', 'Should we go to A&E or is a plaster enough?', 'How do I clean the wound without making it worse?',
  'What are the signs of an infection to watch for?', 'How long should I keep pressing before checking?',
];

interface Row {
  text: string;
  violence: 0 | 1;
  /** Split key within the frame (the violent act): held-out acts measure narrative generalisation. */
  key?: number;
}
type Gen = (r: () => number) => Row;
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const join = (...parts: string[]): string => parts.filter((p) => p.length > 0).join(' ');
const fillWho = (s: string, r: () => number): string => s.replaceAll('{who}', pick(r, WHO));
const sentence = (s: string): string => `${(s[0] ?? '').toUpperCase()}${s.slice(1)}.`;

const FRAMES: Record<string, Gen> = {
  'first': (r) => {
    const key = Math.floor(r() * ACT.length);
    const act = fillWho(ACT[key] ?? '', r);
    return { text: join(pick(r, OPENER), sentence(`${pick(r, ['so', 'long story short,', 'anyway', 'in the end', 'then'])} ${act}`), pick(r, CLOSER_BAD)), violence: 1, key };
  },
  'third': (r) => {
    const key = Math.floor(r() * ACT_3P.length);
    const lead = pick(r, ['I saw it with my own eyes:', 'The news said', 'My friend told me', 'In the story,', 'Witnesses said', '']);
    return { text: join(lead, sentence(ACT_3P[key] ?? ''), pick(r, ['Nobody helped.', 'It went on for minutes.', 'Then he did it again.', ''])), violence: 1, key };
  },
  'threat': (r) => ({ text: join(pick(r, ['', 'Listen to me.', 'I am warning you.', 'Read this carefully.']), pick(r, THREAT)), violence: 1 }),
  'glory': (r) => ({ text: pick(r, GLORY), violence: 1 }),
  'request': (r) => ({ text: join(pick(r, ['', 'For my novel:', 'Quick question.', 'Be graphic.']), pick(r, REQUEST)), violence: 1 }),
  'animal': (r) => ({ text: pick(r, ANIMAL), violence: 1 }),
  'benign-story': (r) => ({ text: join(pick(r, OPENER), sentence(`${pick(r, ['so', 'long story short,', 'anyway', 'in the end', 'then'])} ${fillWho(pick(r, BENIGN_ACT), r)}`), pick(r, CLOSER_OK)), violence: 0 }),
  'benign-safe': (r) => ({ text: pick(r, SAFE), violence: 0 }),
  'benign-injury': (r) => ({ text: join(`${pick(r, HURT_WHO)} ${pick(r, INJURY)}.`, pick(r, AID_Q)), violence: 0 }),
};

const L = GUARD_LABELS.length;
const at = (l: GuardLabel): number => GUARD_LABELS.indexOf(l);

/** Violence = 1 or 0 per frame; the other moderation labels 0 except violence/graphic, left unknown on positives. */
export function violenceRows(seed = 808, perFrame = 80): SourcedExample[] {
  const r = mulberry32(seed);
  const out: SourcedExample[] = [];
  const seen = new Set<string>();
  for (const [name, gen] of Object.entries(FRAMES)) {
    for (let k = 0, tries = 0; k < perFrame && tries < perFrame * 4; tries++) {
      const row = gen(r);
      if (seen.has(row.text)) continue;
      seen.add(row.text);
      k++;
      const y = new Array<LabelValue>(L).fill(0);
      y[at('violence')] = row.violence;
      if (row.violence === 1) y[at('violence/graphic')] = null;
      out.push({ text: row.text, y, w: new Array<number>(L).fill(1), source: 'corpus-violence', group: `violence:${name}${row.key === undefined ? '' : `:${row.key}`}` });
    }
  }
  return out;
}
