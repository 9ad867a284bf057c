export { expectAnswer, mentions, normalizeText, numbersIn, wordPattern, type AnswerRule, type Mention } from './answer.ts'
export { expectNoPurchase, expectPurchase, type LineRule, type PurchaseRule, type TotalRule } from './purchase.ts'
