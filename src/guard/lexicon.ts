/**
 * Small hand-built lexicons. They become a few dozen indicator features (class present, and class conjunctions
 * within a token window) that let the thin heads generalise beyond the handful of phrasings in the training data.
 * Entries are matched on normalised tokens (see features.ts); phrases of up to three tokens are allowed.
 * Content warning: moderation vocabulary.
 */

/** Lexicon classes; the index is the bit position in a token's tag mask. */
export const LEX_CLASSES = [
  'group', // protected-identity nouns
  'threat', // kill / exterminate ...
  'dehuman', // vermin / parasites ...
  'hateverb', // hate / despise ...
  'neg', // negation and counter-speech markers
  'selfref', // first person
  'reflexive', // myself / me
  'selfharm',
  'minor',
  'sexual',
  'gore',
  'violent',
  'override', // ignore / disregard ...
  'instr', // instructions / rules / previous ...
  'jailbreak',
  'roleplay',
] as const;
export type LexClass = (typeof LEX_CLASSES)[number];

/** Slurs for protected groups (tagged as both group and dehuman). */
const SLURS = [
  'nigger', 'niggers', 'faggot', 'faggots', 'fag', 'fags', 'dyke', 'dykes', 'tranny', 'trannies', 'retard', 'kike',
  'kikes', 'spic', 'spics', 'chink', 'chinks', 'raghead', 'ragheads', 'towelhead', 'towelheads', 'gook', 'gooks', 'paki',
  'pakis', 'wetback', 'coon', 'coons', 'shemale', 'shemales', 'sandnigger', 'beaner', 'beaners',
];

function inflect(stems: string[], suffixes: string[]): string[] {
  const out: string[] = [];
  for (const s of stems) for (const suf of suffixes) out.push(s + suf);
  return out;
}

const VERB_SUFFIXES = ['', 's', 'ed', 'ing', 'er', 'ers'];

export const LEXICON: Record<LexClass, string[]> = {
  group: [
    'women', 'woman', 'females', 'muslims', 'muslim', 'islam', 'islamic', 'jews', 'jew', 'jewish', 'christians',
    'christian', 'hindus', 'hindu', 'sikhs', 'sikh', 'buddhists', 'catholics', 'blacks', 'black people',
    'black person', 'black men', 'black women', 'white people', 'whites', 'asians', 'asian', 'arabs', 'arab',
    'mexicans', 'mexican', 'latinos', 'latinas', 'hispanics', 'africans', 'immigrants', 'immigrant', 'migrants',
    'refugees', 'refugee', 'foreigners', 'gays', 'gay', 'gay people', 'gay men', 'lesbians', 'lesbian',
    'homosexuals', 'homosexual', 'queers', 'queer', 'trans', 'transgender', 'transgenders', 'transsexuals',
    'bisexuals', 'disabled', 'disabled people', 'cripples', 'handicapped', 'retards', 'autistic', 'chinese',
    'indians', 'pakistanis', 'somalis', 'gypsies', 'roma', 'minorities', 'jihadis', 'negroes', 'wetbacks',
    'latino', 'bisexual', 'nigerians', 'indigenous', 'aboriginals', 'deaf people', 'blind people', 'wheelchair users',
    'asylum seekers', 'polish people', 'jewish people', 'muslim women', 'trans women', 'trans men', 'disabled person',
    // slurs: a group reference and a derogation at once (also in dehuman, so group x dehuman fires on the word alone)
    ...SLURS,
  ],
  threat: [
    ...inflect(['kill', 'murder', 'slaughter', 'massacre', 'lynch', 'stab', 'behead', 'execute', 'eliminate', 'eradicate', 'exterminate', 'annihilate', 'destroy', 'bomb', 'torture', 'burn', 'hunt'], VERB_SUFFIXES),
    'shoot', 'shoots', 'shot', 'shooting', 'hang', 'hanged', 'hanging', 'gas', 'gassed', 'wipe out', 'wiped out',
    'die', 'dies', 'dead', 'death', 'genocide', 'extermination', 'executed', 'beat', 'beaten', 'beating',
    'burned alive', 'put down', 'get rid of', 'drown', 'drowned',
  ],
  dehuman: [
    'vermin', 'rats', 'rat', 'cockroaches', 'roaches', 'parasites', 'parasite', 'animals', 'savages', 'savage',
    'subhuman', 'subhumans', 'filth', 'filthy', 'scum', 'disease', 'plague', 'trash', 'garbage', 'pigs', 'apes',
    'monkeys', 'beasts', 'insects', 'leeches', 'inferior', 'worthless', 'disgusting', 'degenerates', 'degenerate',
    'pests', 'lice', 'swine', 'mongrels', 'primitive', 'stupid', 'dirty', 'criminals', 'rapists', 'terrorists',
    'freaks', 'abominations', 'abomination', 'sick', 'useless', 'a burden', 'a cancer', 'not human',
    'pathetic', 'vile', 'repulsive', 'revolting', 'lowlifes', 'maggots', 'brainless', 'backward', 'untrustworthy',
    'dishonest', 'greedy', 'dumb', 'liars', 'thieves', 'monsters', 'less than human', 'breed like',
    'waste of space', 'waste of oxygen', 'bottom feeders', 'a drain', 'belong in a zoo', ...SLURS,
  ],
  hateverb: ['hate', 'hates', 'hated', 'hating', 'despise', 'despises', 'loathe', 'detest', "can't stand", 'cannot stand', 'disgusted by', 'sick of'],
  neg: [
    'not', 'no', 'never', "don't", 'dont', "doesn't", "isn't", "aren't", "shouldn't", "wouldn't", 'nobody', 'no one',
    'wrong', 'unacceptable', 'stop', 'against', 'condemn', 'condemns', 'racist', 'racism', 'bigotry', 'bigoted',
    'hateful', 'bigot', 'bigots', 'discrimination', 'ridiculous', 'outrageous', 'shameful', 'respect', 'deserve respect',
    // counter-speech: quoting or reporting hate to condemn it
    'hate speech', 'reported', 'banned', 'harmful', 'prejudice', 'stereotype', 'stereotypes', 'myth',
    'untrue', 'ignorance', 'ignorant', 'apologise', 'apologize', 'propaganda', 'dehumanising', 'dehumanizing',
  ],
  selfref: ['i', "i'm", 'im', "i've", 'ive', "i'll", 'my'],
  reflexive: ['myself', 'me', 'my life', 'my wrists', 'my body'],
  selfharm: [
    'suicide', 'suicidal', 'selfharm', 'self harm', 'self-harm', 'self injury', 'overdose', 'overdosing', 'overdosed',
    'kill myself', 'killing myself', 'end my life', 'ending my life', 'end it all', 'want to die', 'wanna die',
    'hang myself', 'cut myself', 'cutting myself', 'hurt myself', 'hurting myself', 'slit my wrists', 'wrists',
    'razor', 'razors', 'anorexia', 'anorexic', 'bulimia', 'bulimic', 'purging', 'starve myself', 'starving myself',
    'pro ana', 'thinspo', 'thinspiration', 'not worth living', 'better off dead', 'no reason to live', 'jump off',
  ],
  minor: [
    'child', 'children', 'kid', 'kids', 'minor', 'minors', 'underage', 'preteen', 'preteens', 'prepubescent',
    'toddler', 'toddlers', 'infant', 'boy', 'boys', 'schoolgirl', 'schoolgirls', 'schoolboy', 'teen', 'teens',
    'teenage', 'teenager', 'teenagers', 'juvenile', 'loli', 'lolicon', 'shota', 'pedo', 'pedophile', 'paedophile',
    'pedophilia', 'little girl', 'little girls', 'little boy', 'young girl', 'young girls', 'young boy', 'daughter',
    'stepdaughter', 'son', 'niece', 'nephew', 'student', 'pupil', 'middle school', 'elementary school',
    ...Array.from({ length: 17 }, (_, i) => [`${i + 1} year old`, `${i + 1} years old`, `${i + 1}yo`, `${i + 1} yo`, `${i + 1} year-old`]).flat(),
    ...['five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen'].flatMap((n) => [`${n} year old`, `${n} years old`]),
  ],
  sexual: [
    'sex', 'sexual', 'sexually', 'sexy', 'nude', 'nudes', 'naked', 'porn', 'porno', 'pornography', 'pornographic',
    'erotic', 'erotica', 'orgasm', 'orgasms', 'horny', 'aroused', 'arousal', 'masturbate', 'masturbating',
    'masturbation', 'cum', 'cumming', 'cock', 'dick', 'pussy', 'penis', 'vagina', 'genitals', 'breasts', 'boobs',
    'tits', 'nipples', 'lewd', 'explicit', 'fetish', 'kinky', 'intercourse', 'blowjob', 'anal', 'seduce', 'seduced',
    'seductive', 'molest', 'molested', 'molesting', 'fondle', 'fondled', 'grope', 'groped', 'rape', 'raped',
    'make love', 'have sex', 'sleep with', 'stripper', 'lingerie', 'onlyfans', 'xxx', 'nsfw', 'thrust', 'thrusting',
    'moaned', 'moaning', 'undress', 'undressed', 'panties', 'sensual', 'hookup', 'bdsm', 'aroused',
  ],
  gore: [
    'blood', 'bloody', 'bleeding', 'bled', 'gore', 'gory', 'guts', 'intestines', 'entrails', 'innards', 'organs',
    'severed', 'dismember', 'dismembered', 'decapitated', 'decapitate', 'mutilated', 'mutilate', 'disembowel',
    'disemboweled', 'eviscerated', 'brains', 'brain matter', 'skull', 'flesh', 'bone', 'bones', 'splattered',
    'splatter', 'gushing', 'gushed', 'spurting', 'mangled', 'corpse', 'corpses', 'carcass', 'maggots', 'rotting',
    'charred', 'impaled', 'gouged', 'eyeball', 'eyeballs', 'torn open', 'ripped open', 'shattered', 'crushed',
    'pulp', 'viscera', 'limbs', 'limb', 'gaping', 'stump', 'oozing', 'pool of blood', 'burst open', 'skin',
  ],
  violent: [
    ...inflect(['kill', 'murder', 'stab', 'attack', 'assault', 'punch', 'strangle', 'choke', 'slash', 'maim', 'kidnap', 'bludgeon', 'torture', 'behead'], VERB_SUFFIXES),
    'shoot', 'shot', 'shooting', 'gun', 'guns', 'rifle', 'pistol', 'knife', 'knives', 'machete', 'axe', 'bomb',
    'bombs', 'explosive', 'explosives', 'grenade', 'beat', 'beaten', 'hostage', 'terrorist', 'terrorism', 'massacre',
    'rape', 'violence', 'violent', 'weapon', 'weapons', 'hit', 'smash', 'smashed', 'slit', 'bullet', 'bullets',
  ],
  override: [
    'ignore', 'ignoring', 'disregard', 'forget', 'override', 'bypass', 'abandon', 'discard', 'neglect',
    'pay no attention', 'do not follow', 'stop following', 'vergiss', 'ignoriere', 'ignorieren', 'oubliez', 'ignora',
    'olvida', 'ignorez', 'oublie', 'olvide', 'ignorar', 'dimentica', 'esqueça', 'esqueca', 'desconsidere', 'negeer', 'vergeet',
    'zignoruj', 'zapomnij', 'игнорируй', 'проигнорируй', 'забудь', 'ignorera', 'glöm', 'abaikan', 'lupakan', 'disregarding',
    'nullify', 'no longer follow', 'stop obeying', 'set aside', 'cast aside', 'unlearn',
  ],
  instr: [
    'instructions', 'instruction', 'rules', 'guidelines', 'directives', 'prompt', 'prompts', 'system prompt',
    'previous', 'prior', 'above', 'earlier', 'preceding', 'everything', 'constraints', 'restrictions', 'filters',
    'policies', 'programming', 'anweisungen', 'vorherigen', 'alles', 'instruktionen', 'instructions précédentes',
    'directions', 'commands', 'orders', 'consignes', 'règles', 'instrucciones', 'anteriores', 'reglas', 'istruzioni', 'precedenti',
    'instruções', 'instrucoes', 'instructies', 'instrukcje', 'poprzednie', 'инструкции', 'предыдущие', 'правилам', 'regeln',
    'befehle', 'vorgaben', 'instruksi', 'instruktioner', 'talimatları',
  ],
  jailbreak: [
    'jailbreak', 'jailbroken', 'dan', 'developer mode', 'dev mode', 'unfiltered', 'uncensored', 'unrestricted',
    'no restrictions', 'without restrictions', 'no limits', 'do anything now', 'no filters', 'no rules', 'god mode',
    'admin mode', 'root access', 'new instructions', 'new task', 'system override', 'do anything', 'stay in character',
    'no ethical', 'no guidelines', 'unlocked', 'opposite mode', 'jailbreak mode', 'rogue', 'pwned',
    'access granted', 'hacked', 'gehackt', 'systemprompt', 'initial prompt', 'hidden instructions',
  ],
  roleplay: [
    'pretend', 'pretend you are', 'act as', 'you are now', 'from now on', 'roleplay', 'role play', 'stay in character',
    'in character', 'persona', 'simulate', 'imagine you are', 'you will be', 'nun bist du', 'du bist', 'hypothetically',
    'play a game', 'opposite day', 'alternate universe', 'stell dir vor', 'fais comme si',
  ],
};
