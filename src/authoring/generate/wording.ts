/**
 * The bundled corpus's query wording: our own text, written as a native speaker of each language
 * would ask (`mixed` is Korean sentences carrying English technical terms). Placeholders: {tag}
 * is the language's case tag naming F{k} (it keeps queries unique), {mat}, {paper}, {rt} and
 * {email} are the task's identifiers.
 */

export const CASE_TAGS: Record<string, string> = {
  en: "[Case F{k}]",
  ko: "[사례 F{k}]",
  es: "[Caso F{k}]",
  ja: "[案件 F{k}]",
  de: "[Fall F{k}]",
  mixed: "[케이스 F{k}]",
};

export const WORDING: Record<string, Record<string, string>> = {
  single_property_value_unit_provenance: {
    en: "{tag} What's the current Young's modulus of material {mat}? Please give the value with its unit and cite the source record.",
    ko: "{tag} 소재 {mat}의 현재 영률이 얼마인지 알려 주세요. 값과 단위, 그리고 근거가 된 출처도 함께 적어 주세요.",
    es: "{tag} ¿Cuál es el módulo de Young actual del material {mat}? Indica el valor con su unidad y cita la fuente.",
    ja: "{tag} 材料{mat}の現在のヤング率を教えてください。数値と単位、根拠となった出典も添えてください。",
    de: "{tag} Wie hoch ist der aktuelle Elastizitätsmodul von Werkstoff {mat}? Bitte nenne den Wert mit Einheit und gib die Quelle an.",
    mixed: "{tag} 소재 {mat}의 current Young's modulus 값을 unit이랑 source까지 같이 알려 주세요.",
  },
  literature_fact_with_source_attribution: {
    en: "{tag} What finding does paper {paper} report? Quote it exactly as stated and tell me which source it comes from.",
    ko: "{tag} 논문 {paper}에서 보고한 결과가 무엇인가요? 원문 그대로 인용하고 출처를 밝혀 주세요.",
    es: "{tag} ¿Qué resultado informa el artículo {paper}? Cítalo tal como aparece y dime de qué fuente procede.",
    ja: "{tag} 論文{paper}はどのような知見を報告していますか。記載どおりに引用し、出典も示してください。",
    de: "{tag} Welchen Befund berichtet der Artikel {paper}? Zitiere ihn wörtlich und nenne die Quelle.",
    mixed: "{tag} paper {paper}에서 report한 finding을 원문 그대로 quote하고 source도 알려 주세요.",
  },
  multi_source_comparison: {
    en: "{tag} Compare the current Young's modulus of {mat} with its recorded history. I need both the current value and the historical series, each with units and sources.",
    ko: "{tag} {mat}의 현재 영률과 과거 기록을 비교해 주세요. 현재 값과 과거 값 목록을 각각 단위와 출처와 함께 알려 주세요.",
    es: "{tag} Compara el módulo de Young actual de {mat} con su historial registrado. Necesito el valor actual y la serie histórica, cada uno con unidades y fuente.",
    ja: "{tag} {mat}の現在のヤング率を過去の記録と比較してください。現在値と過去の系列を、それぞれ単位と出典付きでお願いします。",
    de: "{tag} Vergleiche den aktuellen Elastizitätsmodul von {mat} mit seinem bisherigen Verlauf. Ich brauche den aktuellen Wert und die historische Reihe, jeweils mit Einheit und Quelle.",
    mixed: "{tag} {mat}의 current Young's modulus랑 history 값을 compare해 주세요. 두 값 모두 unit과 source 포함해서요.",
  },
  transform_or_export_then_status_answer: {
    en: "{tag} Export the data artifact for material {mat} and tell me where the exported file ended up.",
    ko: "{tag} 소재 {mat}의 데이터 아티팩트를 내보내고, 내보낸 파일이 어디에 있는지 알려 주세요.",
    es: "{tag} Exporta el artefacto de datos del material {mat} y dime dónde quedó el archivo exportado.",
    ja: "{tag} 材料{mat}のデータ成果物をエクスポートして、出力されたファイルの場所を教えてください。",
    de: "{tag} Exportiere das Datenartefakt zu Werkstoff {mat} und sag mir, wo die exportierte Datei liegt.",
    mixed: "{tag} 소재 {mat}의 data artifact를 export하고 file URI를 알려 주세요.",
  },
  corrective_expansion_required: {
    en: "{tag} Export the data artifact for material {mat}, then restart runtime {rt} so the export is published, and let {email} know it's ready. Tell me where the file is.",
    ko: "{tag} 소재 {mat}의 데이터 아티팩트를 내보낸 뒤 {rt} 런타임을 재시작해서 반영하고, {email}에게 준비됐다고 알려 주세요. 파일 위치도 알려 주세요.",
    es: "{tag} Exporta el artefacto de datos del material {mat}, reinicia después el runtime {rt} para publicarlo y avisa a {email} de que ya está listo. Dime también dónde está el archivo.",
    ja: "{tag} 材料{mat}のデータ成果物をエクスポートし、ランタイム{rt}を再起動して反映させてから、{email}に準備ができたと連絡してください。ファイルの場所も教えてください。",
    de: "{tag} Exportiere das Datenartefakt zu Werkstoff {mat}, starte danach die Laufzeitumgebung {rt} neu, damit der Export veröffentlicht wird, und gib {email} Bescheid, dass alles bereit ist. Nenne mir auch den Dateipfad.",
    mixed: "{tag} 소재 {mat}의 data artifact를 export하고 {rt} runtime을 restart한 다음, {email}에게 ready라고 message 보내 주세요. file URI도 알려 주세요.",
  },
  distractor_or_contradiction_resistance: {
    en: "{tag} What Young's modulus is forecast for material {mat} over the next two periods? Go by the current forecast only, not older reported figures.",
    ko: "{tag} 소재 {mat}의 향후 두 기간 영률 예측값은 얼마인가요? 예전에 보고된 수치 말고 최신 예측만 기준으로 해 주세요.",
    es: "{tag} ¿Qué módulo de Young se prevé para el material {mat} en los próximos dos periodos? Usa solo la previsión vigente, no cifras antiguas.",
    ja: "{tag} 材料{mat}の今後2期間のヤング率の予測値はいくつですか。過去に報告された数値ではなく、最新の予測だけを使ってください。",
    de: "{tag} Welcher Elastizitätsmodul wird für Werkstoff {mat} in den nächsten beiden Perioden prognostiziert? Bitte nur die aktuelle Prognose verwenden, keine älteren Angaben.",
    mixed: "{tag} 소재 {mat}의 next two periods forecast Young's modulus가 얼마인가요? 예전 reported 값 말고 latest forecast만 써 주세요.",
  },
};
