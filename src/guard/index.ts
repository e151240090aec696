export { GUARD_LABELS, GUARD_LABEL_COUNT, isGuardLabel, type GuardLabel } from './labels.js';
export { normalizeText } from './normalize.js';
export { DEFAULT_FEATURE_CONFIG, extractFeatures, FeatureBuffer, type FeatureConfig } from './features.js';
export {
  DEFAULT_WINDOW_CONFIG,
  flaggedLabels,
  loadModel,
  parseModel,
  quantizeWeights,
  saveModel,
  scoreText,
  scoreTextArray,
  serializeModel,
  type GuardModel,
  type GuardScores,
  type WindowConfig,
} from './model.js';
export { DEFAULT_TRAIN_OPTIONS, trainModel, type LabelValue, type TrainExample, type TrainOptions } from './train.js';
export { defaultModelPath, findProjectRoot } from './paths.js';
