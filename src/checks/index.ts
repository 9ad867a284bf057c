export { expectAnswer, mentions, normalizeText, numbersIn, wordPattern, type AnswerRule, type Mention } from './answer.ts'
