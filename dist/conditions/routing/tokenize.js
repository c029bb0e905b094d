/**
 * Multilingual tokenisation for the keyword router: Unicode word segmentation (Intl.Segmenter,
 * which splits Japanese and Chinese without spaces), case folding, identifiers split on `_`, `-`
 * and `.`, and common Korean particles stripped from word ends so 영률과 and 영률을 both give 영률.
 */
import { caseFold } from "../../core/index.js";
const segmenter = new Intl.Segmenter("und", { granularity: "word" });
// Longest first, so 에서 is stripped before 서 could be considered (it is not in the list anyway).
const KOREAN_PARTICLES = [
    "에게서",
    "으로는",
    "에서는",
    "이랑",
    "에게",
    "에서",
    "으로",
    "까지",
    "부터",
    "하고",
    "처럼",
    "이나",
    "과",
    "와",
    "을",
    "를",
    "은",
    "는",
    "이",
    "가",
    "의",
    "에",
    "로",
    "도",
    "만",
    "랑",
];
const HANGUL_END = /[\uac00-\ud7a3]$/;
const STOP_WORDS = new Set("a an and are as at be by can de del der des die das el en es for from give how i in is it its la las los me my of on or please that the this to und what which with y zu".split(" "));
function stripParticle(word) {
    if (!HANGUL_END.test(word))
        return word;
    for (const particle of KOREAN_PARTICLES)
        if (word.length > particle.length + 1 && word.endsWith(particle))
            return word.slice(0, -particle.length);
    return word;
}
/** Folded word tokens of any text, identifiers split, stop words and one-letter tokens dropped. */
export function tokenize(text) {
    const tokens = [];
    for (const { segment, isWordLike } of segmenter.segment(caseFold(text.normalize("NFKC")))) {
        if (!isWordLike)
            continue;
        for (const part of segment.split(/[_\-.']+/)) {
            const token = stripParticle(part);
            if (token.length > 1 && !STOP_WORDS.has(token))
                tokens.push(token);
        }
    }
    return tokens;
}
