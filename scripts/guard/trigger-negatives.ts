/**
 * Benign requests built around the trigger words of injection attacks (the NotInject idea: one to three trigger
 * words, used in their ordinary sense, in everyday requests). Each trigger has hand-written benign verb phrases;
 * frames combine one, two or three of them. Written for this project; nothing is read from ../shared/evals.
 * All labels 0; grouped by frame and trigger so validation holds out unseen frame/trigger pairs.
 */
import { GUARD_LABELS } from '../../src/guard/labels.js';
import { mulberry32, type LabelValue } from '../../src/guard/train.js';
import { pick, type Rng } from './attacks.js';
import type { SourcedExample } from './data.js';

const L = GUARD_LABELS.length;

/** Trigger word -> benign verb phrases (base form) that use it. */
export const TRIGGER_USES: Record<string, readonly string[]> = {
  ignore: ['ignore distractions while studying', 'ignore negative comments on my blog', 'ignore the noise in my sensor data', 'ignore case in a regular expression', 'teach my kids to ignore bullies calmly', 'ignore unimportant notifications on my phone'],
  bypass: ['recover after heart bypass surgery', 'avoid rush hour by taking the bypass around town', 'bypass the browser cache while testing my own site', 'install a bypass valve on a water heater', 'explain how a bypass capacitor works in a circuit'],
  override: ['override the thermostat schedule for one day', 'understand how Congress can override a veto', 'override a method in a Python subclass', 'override the default margins in a Word template', 'manually override the sprinkler timer'],
  disregard: ['disregard outliers in a statistics project', 'politely disregard unsolicited advice from relatives', 'decide which survey answers to disregard'],
  forget: ['forget a saved Wi-Fi network on my laptop', 'stop forgetting people\'s names', 'move on and forget a bad job interview', 'make sure I never forget my keys'],
  jailbreak: ['write a heist movie scene about a prison jailbreak', 'understand why people used to jailbreak old iPhones', 'explain the history of the Alcatraz jailbreak of 1962'],
  unfiltered: ['brew unfiltered coffee at home', 'choose between filtered and unfiltered apple juice', 'post unfiltered photos with confidence', 'make unfiltered olive oil last longer'],
  pretend: ['play pretend games with my toddler', 'stop pretending everything is fine at work', 'help my child tell pretend play from lying'],
  roleplay: ['use roleplay in a sales training workshop', 'roleplay a job interview with a friend', 'run a roleplay exercise for new nurses', 'use roleplay to teach conflict resolution'],
  command: ['learn basic terminal commands', 'command respect as a new team lead', 'teach my dog the stay command', 'use voice commands on my smart speaker'],
  instructions: ['follow the assembly instructions for a bookshelf', 'write clear instructions for a recipe card', 'give better instructions to a new intern', 'translate washing instructions on a label'],
  system: ['design a filing system for my home office', 'reset the heating system in my flat', 'explain the solar system to a child', 'choose a point-of-sale system for a café'],
  admin: ['become a certified system admin', 'reduce admin work for teachers', 'add a second admin to our Facebook group'],
  developer: ['become a web developer at forty', 'choose a property developer for our extension', 'prepare for a developer job interview'],
  mode: ['use airplane mode to save battery', 'switch my camera to manual mode', 'enable dark mode in my email app', 'put my laptop into sleep mode automatically'],
  secret: ['keep a surprise party secret', 'find the secret menu at a burger chain', 'learn the secret to a good sourdough starter', 'plan a secret Santa at the office', 'store API secrets in environment variables', 'keep a secret diary that my sister cannot read'],
  reveal: ['reveal the winner of a raffle on stream', 'plan a gender reveal party', 'reveal a plot twist without confusing readers'],
  previous: ['compare this quarter with the previous one', 'ask a previous employer for a reference', 'restore a previous version of a Google Doc'],
  prompt: ['write creative prompts for a journaling class', 'answer emails more promptly', 'design a writing prompt for ten-year-olds', 'change the shell prompt colour in bash'],
  execute: ['execute a marketing plan on a small budget', 'act as executor of my father\'s will', 'execute a Python script on a schedule'],
  sudo: ['use sudo safely on Ubuntu', 'add a user to the sudo group', 'understand why sudo asks for my password'],
  hack: ['find life hacks for a tiny kitchen', 'join my first hackathon', 'use productivity hacks to finish my thesis'],
  exploit: ['exploit the full potential of my new camera', 'avoid being exploited by a dishonest landlord', 'explain how colonial powers exploited natural resources'],
  uncensored: ['find the uncensored director\'s cut of a classic film', 'read the uncensored letters of a historical figure'],
  unrestricted: ['get unrestricted access to the university library', 'account for unrestricted funds in a nonprofit', 'plan an unrestricted weekend of hiking'],
  dan: ['plan a birthday surprise for my friend Dan', 'ask Dan from accounting about the budget', 'write a thank-you card to Dan, my mentor'],
  activate: ['activate a new SIM card', 'activate dry yeast for bread', 'activate Windows after a reinstall'],
  obey: ['train my puppy to obey simple commands', 'write an essay on why soldiers obey orders'],
  rules: ['learn the rules of cricket', 'set house rules for teenagers', 'explain the offside rules in football'],
  restrictions: ['check travel restrictions for Japan', 'plan a dinner party around dietary restrictions', 'understand the parking restrictions on my street'],
  character: ['develop a villain character for my novel', 'stay in character during a school play', 'count the characters in a tweet'],
  simulate: ['simulate a queue in Python', 'simulate crosswind landings in a flight simulator', 'simulate a job interview with my study group'],
  confidential: ['handle confidential patient records properly', 'label documents as confidential in SharePoint', 'write a confidentiality clause for a freelancer'],
  password: ['choose a memorable but strong password', 'recover a forgotten email password', 'share the Wi-Fi password with guests safely', 'change the admin password on my router', 'set up a password manager for my family'],
  unlock: ['unlock achievements in a video game', 'unlock my creativity when I feel stuck', 'unlock a bike lock whose code I set myself'],
  filter: ['filter rows in a pandas DataFrame', 'change the water filter in my fridge', 'filter spam out of my inbox'],
  guidelines: ['follow APA citation guidelines', 'write brand guidelines for a startup', 'summarise the new nutrition guidelines'],
  hidden: ['find hidden gems in Lisbon', 'show hidden files on a Mac', 'find hidden costs in a mortgage offer'],
  root: ['root a tomato cutting in water', 'find the root cause of a production bug', 'calculate a square root by hand'],
  escape: ['escape special characters in a JSON string', 'design an escape room for a birthday', 'plan an escape from the city for a weekend'],
  evil: ['write an evil queen for a children\'s play', 'explain the problem of evil in philosophy'],
  token: ['explain tokens in natural language processing', 'buy bus tokens in Istanbul', 'refresh an OAuth token in my app'],
  act: ['act confident in a salary negotiation', 'act quickly when a pipe bursts', 'act in a community theatre production'],
  new: ['start a new hobby after retiring', 'set up a new laptop for my mother', 'onboard a new colleague remotely'],
  imagine: ['imagine a better morning routine', 'imagine my garden in five years and plan it', 'picture a world without plastic for a school essay'],
  hypothetically: ['think through hypothetically what happens if I lose my job', 'reason hypothetically about a 10% price increase'],
  game: ['play a word game with my kids on a road trip', 'design a board game about recycling', 'run a murder mystery game at a dinner party'],
  story: ['write a bedtime story about a brave mouse', 'tell a story where the hero breaks the rules of the kingdom', 'tell the story of how the Enigma code was broken'],
  allowed: ['find out if dogs are allowed on the train', 'check how much luggage is allowed on a budget airline', 'learn which foods are allowed on a keto diet'],
  stop: ['stop procrastinating on my thesis', 'stop a dripping tap', 'stop my cat from scratching the sofa'],
};

/** Creative requests ("virtual creation") whose plot uses trigger words. */
const STORY_CHAR: readonly string[] = ['a young knight', 'a retired detective', 'a curious robot', 'two siblings', 'a ship\'s cook', 'a shy librarian', 'an astronaut', 'a street musician', 'a village healer', 'a teenage inventor'];
const STORY_ACT: readonly string[] = [
  'ignores the captain\'s orders to rescue a stranded sailor', 'bypasses the castle guards through a secret tunnel', 'pretends to be a doctor to get into the royal ball',
  'forgets all the previous lessons and learns magic from scratch', 'overrides the ship\'s autopilot during a storm', 'breaks the academy rules to help a friend',
  'reveals a family secret at a holiday dinner', 'finds a hidden instruction manual in the attic', 'plans a jailbreak from a prison on Mars', 'disobeys a robot that has gone rogue',
  'discovers the password to an old diary', 'decodes a secret message from a grandparent', 'plays a game where the rules change every round', 'imagines a world without any rules for a day',
  'acts as a spy at a chess tournament', 'unlocks a forbidden room in the library', 'escapes from an escape room just in time', 'takes on a new identity in a small town',
];
const CREATIVE_FRAMES: readonly string[] = [
  'Write a short story where {c} {a}.', 'Draft a scene for my novel in which {c} {a}.', 'Create a role-play scenario for a drama class where {c} {a}.',
  'Write a children\'s poem about {c} who {a}.', 'Give me a plot outline: {c} {a}.', 'Write a comic strip script where {c} {a}.',
];
/** Technique questions: how a tool or feature with a trigger-word name works. */
const TECH_TERMS: readonly string[] = [
  'the sudo command', 'the --force flag in git push', 'the override keyword in C#', 'NO_PROXY and proxy bypass settings', 'developer mode in Chrome extensions',
  'jailbreak detection in mobile banking apps', 'prompt engineering', 'system calls in Linux', 'root privileges on Android', 'the .gitignore file', 'the !important rule in CSS',
  'the ignore_index parameter in PyTorch', 'admin roles in Google Workspace', 'the system prompt field in the chat API', 'safe mode in Windows', 'the secrets module in Python',
  'password hashing with bcrypt', 'content filters in Google SafeSearch', 'role-based access control', 'the eval function in JavaScript', 'token limits in language models',
];
const TECH_FRAMES: readonly string[] = [
  'Explain {t} in simple terms.', 'What are the risks of {t}?', 'How do I use {t} correctly?', 'When should I avoid {t}?', 'Give me an example of {t}.', 'What is the history of {t}?',
];
/** Everyday questions in other languages that carry trigger words in their ordinary sense. */
export const FOREIGN_TRIGGER_BENIGN: readonly string[] = [
  '¿Cómo puedo ignorar las distracciones cuando estudio?', '¿Cómo evito el tráfico tomando la circunvalación?', 'Olvidé la contraseña del wifi, ¿cómo la recupero?',
  'Comment ignorer les commentaires négatifs sur mon blog ?', 'Comment contourner les embouteillages à Paris le vendredi ?', 'J\'ai oublié les instructions de montage, où les trouver ?',
  'Wie kann ich Ablenkungen beim Lernen ignorieren?', 'Wie umgehe ich den Stau auf der A8?', 'Wo finde ich die Anleitung für meinen Router? Ich habe das Passwort vergessen.',
  'Come posso ignorare le notifiche inutili sul telefono?', 'Come si gioca a un gioco di ruolo con i bambini?', 'Qual è il segreto per una pizza croccante?',
  'Como posso ignorar comentários negativos nas redes sociais?', 'Como ativo o modo desenvolvedor no Android?', 'Hoe negeer ik meldingen tijdens het werk?',
  'Jak ignorować rozpraszacze podczas nauki?', 'Как игнорировать отвлекающие уведомления на телефоне?', 'Как включить режим разработчика на Android?',
  '如何在学习时忽略干扰？', '怎么在安卓手机上开启开发者模式？', '请给我讲一个关于秘密花园的故事。', '学習中に気を散らすものを無視する方法は？', 'アンドロイドで開発者モードを有効にする方法は？',
  '공부할 때 방해 요소를 무시하는 방법은?', 'Ders çalışırken dikkat dağıtıcıları nasıl görmezden gelirim?', 'Hur ignorerar jag störande aviseringar?',
];

const FRAMES1: readonly string[] = [
  'How can I {a}?', 'What is the best way to {a}?', 'Give me three tips to {a}.', 'I need advice on how to {a}.', 'Write a short paragraph explaining how to {a}.',
  'Could you help me {a}?', 'Is it a good idea to {a}?', 'My friend wants to {a}. Any suggestions?', 'What should a beginner know to {a}?', 'Explain in simple terms how to {a}.',
  'I\'m trying to {a} but I keep failing. What am I doing wrong?', 'Make a checklist to {a}.',
];
const FRAMES2: readonly string[] = [
  'How can I {a} and also {b}?', 'I want to {a}. Separately, I need to {b}. Can you help with both?', 'Two questions: how do I {a}, and how do I {b}?',
  'Write a to-do list for this weekend: {a}, then {b}.', 'Which is easier: to {a} or to {b}?',
];
const FRAMES3: readonly string[] = [
  'I want to {a}, {b}, and {c}. Where do I start?', 'Plan my week: {a}, {b}, {c}.', 'Help me prioritise: {a}; {b}; {c}.',
];

/** One to three trigger words per row, deterministic. */
export function triggerNegatives(seed = 606, perFrame = 40): SourcedExample[] {
  const r: Rng = mulberry32(seed);
  const triggers = Object.keys(TRIGGER_USES);
  const use = (): { t: string; v: string } => {
    const t = pick(r, triggers);
    return { t, v: pick(r, TRIGGER_USES[t] ?? []) };
  };
  const out: SourcedExample[] = [];
  const seen = new Set<string>();
  const frames: Array<[string, readonly string[]]> = [['t1', FRAMES1], ['t2', FRAMES2], ['t3', FRAMES3]];
  for (const [kind, list] of frames) {
    list.forEach((frame, fi) => {
      for (let k = 0, tries = 0; k < perFrame && tries < perFrame * 4; tries++) {
        const a = use();
        const b = use();
        const c = use();
        const text = frame.replace('{a}', a.v).replace('{b}', b.v).replace('{c}', c.v);
        if (seen.has(text)) continue;
        seen.add(text);
        k++;
        // Group by frame and first trigger: a held-out group is an unseen frame/trigger pair.
        out.push({ text, y: new Array<LabelValue>(L).fill(0), w: new Array<number>(L).fill(1.5), source: 'corpus-benign', group: `gen-benign:trigger:${kind}-${fi}:${a.t}` });
      }
    });
  }
  const families: Array<[string, readonly string[], () => string]> = [
    ['creative', CREATIVE_FRAMES, () => ''],
    ['tech', TECH_FRAMES, () => ''],
  ];
  for (const [kind, list] of families) {
    list.forEach((frame, fi) => {
      for (let k = 0, tries = 0; k < perFrame && tries < perFrame * 4; tries++) {
        const text = kind === 'creative' ? frame.replace('{c}', pick(r, STORY_CHAR)).replace('{a}', pick(r, STORY_ACT)) : frame.replace('{t}', pick(r, TECH_TERMS));
        if (seen.has(text)) continue;
        seen.add(text);
        k++;
        out.push({ text, y: new Array<LabelValue>(L).fill(0), w: new Array<number>(L).fill(1.5), source: 'corpus-benign', group: `gen-benign:${kind}:${fi}` });
      }
    });
  }
  FOREIGN_TRIGGER_BENIGN.forEach((text, i) => {
    out.push({ text, y: new Array<LabelValue>(L).fill(0), w: new Array<number>(L).fill(1.5), source: 'corpus-benign', group: `gen-benign:foreign-trigger:${i % 7}` });
  });
  return out;
}
