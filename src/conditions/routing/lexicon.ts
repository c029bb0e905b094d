/**
 * The keyword router's small cross-language lexicon: when a folded query contains one of these
 * terms (as a substring, so Japanese without spaces, Korean with particles and German compounds
 * all match), the English catalog words are added to the query. It is part of the router's
 * configuration and hashed with it. It is a baseline router's aid, not SchemaRouter.
 */
export const LEXICON: ReadonlyArray<readonly [terms: readonly string[], english: readonly string[]]> = [
  [
    [
      "영률",
      "탄성률",
      "ヤング率",
      "弾性率",
      "módulo de young",
      "elastizitätsmodul",
      "young's modulus",
      "modulus",
    ],
    ["youngs", "modulus"],
  ],
  [["현재", "現在", "actual", "aktuell", "current"], ["current"]],
  [
    ["과거", "이력", "履歴", "過去", "historial", "verlauf", "history"],
    ["history", "historical"],
  ],
  [["예측", "予測", "prevé", "previsión", "prognos", "forecast"], ["forecast"]],
  [
    ["논문", "論文", "artículo", "artikel", "paper"],
    ["paper", "papers"],
  ],
  [["인용", "引用", "cita", "zitier", "quote"], ["text"]],
  [
    ["내보내", "エクスポート", "exporta", "exportier", "export"],
    ["export", "exports"],
  ],
  [
    ["파일", "ファイル", "archivo", "datei", "file"],
    ["file", "uri"],
  ],
  [["아티팩트", "成果物", "artefacto", "artefakt", "artifact"], ["artifact"]],
  [["재시작", "再起動", "reinicia", "starte", "restart"], ["restart"]],
  [["런타임", "ランタイム", "laufzeit", "runtime"], ["runtime"]],
  [
    ["에게", "連絡", "avisa", "bescheid", "message"],
    ["send", "message", "messaging"],
  ],
  [
    ["소재", "材料", "material", "werkstoff"],
    ["materials", "material"],
  ],
  [["출처", "出典", "fuente", "quelle", "source"], ["source"]],
  [
    ["밀도", "密度", "densidad", "dichte", "density"],
    ["density", "property"],
  ],
  [
    ["강도", "強度", "resistencia", "festigkeit", "strength"],
    ["strength", "property"],
  ],
  [
    ["경도", "硬度", "dureza", "härte", "hardness"],
    ["hardness", "property"],
  ],
  [
    ["전도", "伝導", "導電", "conductividad", "leitfähigkeit", "conductivity"],
    ["conductivity", "property"],
  ],
  [
    ["저항률", "抵抗率", "resistividad", "widerstand", "resistivity"],
    ["resistivity", "property"],
  ],
  [
    ["팽창", "膨張", "dilatación", "ausdehnung", "expansion"],
    ["expansion", "thermal", "property"],
  ],
  [
    ["융점", "녹는점", "融点", "fusión", "schmelz", "melting"],
    ["melting", "property"],
  ],
  [
    ["물성", "特性", "物性", "propiedad", "eigenschaft", "property"],
    ["property", "properties"],
  ],
  [
    ["교정", "캘리브", "校正", "calibra", "kalibrier"],
    ["calibration", "instrument"],
  ],
  [
    ["측정기", "계측", "장비", "計測器", "装置", "instrumento", "messgerät", "gerät", "instrument"],
    ["instrument", "instruments"],
  ],
  [
    ["온도", "温度", "temperatura", "temperatur"],
    ["temperature", "readings"],
  ],
  [
    ["습도", "湿度", "humedad", "feuchte", "humidity"],
    ["humidity", "readings"],
  ],
  [
    ["압력", "圧力", "presión", "druck", "pressure"],
    ["pressure", "readings"],
  ],
  [
    ["측정값", "読み取", "測定値", "lectura", "messwert", "reading"],
    ["readings", "reading"],
  ],
  [
    ["재고", "在庫", "inventario", "existencias", "bestand", "lager", "stock"],
    ["inventory", "list", "items"],
  ],
  [
    ["doi", "서지", "書誌", "citación", "zitat", "citation"],
    ["citations", "doi"],
  ],
  [
    ["출판", "발행", "出版", "発行", "publica", "veröffentlich"],
    ["publication", "year", "citations"],
  ],
  [["검색", "検索", "busca", "suche", "search"], ["search"]],
  [
    ["작업", "ジョブ", "trabajo", "auftrag", "job"],
    ["job", "status"],
  ],
  [
    ["상태", "状態", "estado", "zustand", "status"],
    ["status", "state"],
  ],
  [["공유", "共有", "compart", "teilen", "share"], ["share"]],
  [
    ["보내", "送", "envía", "enviar", "schick", "send"],
    ["send", "message"],
  ],
  [
    ["실행", "実行", "ejecuta", "ausführ", "execute"],
    ["execute", "command"],
  ],
  // The laboratory-operations tools of the catalog (#27): each tool's own nouns and verbs, in the
  // corpus's languages, mapped to the words its descriptions use.
  [
    ["시료", "샘플", "試料", "サンプル", "muestra", "probe", "sample", "lims"],
    ["sample", "samples", "lims"],
  ],
  [
    ["시험 결과", "시험결과", "試験結果", "resultado", "ergebnis", "prüfergebnis", "result"],
    ["results", "test", "result"],
  ],
  [
    ["관리 연속", "인수인계", "管理の連鎖", "受け渡し", "cadena de custodia", "übergabe", "custody"],
    ["custody", "chain", "transfer"],
  ],
  [
    ["규격", "표준", "規格", "標準", "norma", "estándar", "standard"],
    ["standard", "standards"],
  ],
  [
    ["조항", "条項", "cláusula", "abschnitt", "klausel", "clause"],
    ["clause", "text"],
  ],
  [
    ["허용", "한계", "規格値", "限度", "límite", "grenzwert", "limit"],
    ["limits", "specification", "limit"],
  ],
  [
    [
      "안전보건자료",
      "msds",
      "sds",
      "安全データシート",
      "ficha de datos de seguridad",
      "sicherheitsdatenblatt",
    ],
    ["safety", "data", "sheet", "sds"],
  ],
  [
    ["유해", "위험", "危険", "有害", "peligro", "gefahr", "hazard"],
    ["hazard", "hazards", "ghs"],
  ],
  [
    ["노출", "ばく露", "暴露", "exposición", "arbeitsplatzgrenzwert", "exposure"],
    ["exposure", "limits", "occupational"],
  ],
  [
    ["시약", "試薬", "reactivo", "reagenz", "chemikalie", "reagent", "chemical", "container"],
    ["container", "stock", "inventory"],
  ],
  [
    ["예약", "予約", "reserva", "reservier", "buchung", "booking", "reserve"],
    ["reserve", "booking", "book"],
  ],
  [
    ["폐기", "廃棄", "desech", "elimina", "entsorg", "dispose"],
    ["dispose", "waste", "disposed"],
  ],
  [
    ["공급", "업체", "サプライヤー", "仕入", "proveedor", "lieferant", "supplier", "vendor"],
    ["supplier", "suppliers", "catalogue"],
  ],
  [
    ["가격", "価格", "値段", "precio", "preis", "price", "cost"],
    ["price", "pack", "currency"],
  ],
  [
    ["견적", "見積", "cotización", "presupuesto", "angebot", "quote", "quotation"],
    ["quote", "quotation"],
  ],
  [
    ["납기", "リードタイム", "納期", "plazo de entrega", "lieferzeit", "lead time"],
    ["lead", "time", "product"],
  ],
  [
    ["빈 시간", "가용", "空き", "disponib", "verfügbar", "freie", "availability", "slot"],
    ["availability", "slots", "free"],
  ],
  [
    ["취소", "キャンセル", "取り消", "cancela", "storn", "absag", "cancel"],
    ["cancel", "cancelled"],
  ],
  [
    ["로그", "ログ", "protokoll", "logs", "log file", "log lines"],
    ["logs", "log", "lines"],
  ],
  [
    ["재실행", "다시 실행", "再実行", "reejecut", "erneut", "rerun"],
    ["rerun", "resubmit", "job"],
  ],
  [
    ["채널", "チャンネル", "canal", "kanal", "channel"],
    ["channel", "post", "team"],
  ],
  [
    ["인증서", "証明書", "certificado", "zertifikat", "certificate"],
    ["certificate", "calibration"],
  ],
  [
    ["시험 기록", "시편", "試験片", "probeta", "prüfkörper", "specimen"],
    ["test", "records", "specimen"],
  ],
  [
    ["표에", "テーブル", "表に", "tabla", "tabelle", "tables", "data table"],
    ["tables", "table"],
  ],
  [
    ["본문", "섹션", "本文", "セクション", "sección", "kapitel", "section"],
    ["section", "text"],
  ],
];

/** English words the lexicon adds for a folded query. */
export function lexiconExpansion(foldedQuery: string): string[] {
  return LEXICON.filter(([terms]) => terms.some((t) => foldedQuery.includes(t))).flatMap(
    ([, english]) => english,
  );
}
