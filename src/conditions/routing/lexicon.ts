/**
 * The keyword router's small cross-language lexicon: when a folded query contains one of these
 * terms (as a substring, so Japanese without spaces, Korean with particles and German compounds
 * all match), the English catalog words are added to the query. It is part of the router's
 * configuration and hashed with it. It is a baseline router's aid, not SchemaRouter.
 */
export const LEXICON: ReadonlyArray<readonly [terms: readonly string[], english: readonly string[]]> = [
  [["영률", "탄성률", "ヤング率", "弾性率", "módulo de young", "elastizitätsmodul", "young's modulus", "modulus"], ["youngs", "modulus"]],
  [["현재", "現在", "actual", "aktuell", "current"], ["current"]],
  [["과거", "이력", "履歴", "過去", "historial", "verlauf", "history"], ["history", "historical"]],
  [["예측", "予測", "prevé", "previsión", "prognos", "forecast"], ["forecast"]],
  [["논문", "論文", "artículo", "artikel", "paper"], ["paper", "papers"]],
  [["인용", "引用", "cita", "zitier", "quote"], ["text"]],
  [["내보내", "エクスポート", "exporta", "exportier", "export"], ["export", "exports"]],
  [["파일", "ファイル", "archivo", "datei", "file"], ["file", "uri"]],
  [["아티팩트", "成果物", "artefacto", "artefakt", "artifact"], ["artifact"]],
  [["재시작", "再起動", "reinicia", "starte", "restart"], ["restart"]],
  [["런타임", "ランタイム", "laufzeit", "runtime"], ["runtime"]],
  [["에게", "連絡", "avisa", "bescheid", "message"], ["send", "message", "messaging"]],
  [["소재", "材料", "material", "werkstoff"], ["materials", "material"]],
  [["출처", "出典", "fuente", "quelle", "source"], ["source"]],
];

/** English words the lexicon adds for a folded query. */
export function lexiconExpansion(foldedQuery: string): string[] {
  return LEXICON.filter(([terms]) => terms.some((t) => foldedQuery.includes(t))).flatMap(([, english]) => english);
}
