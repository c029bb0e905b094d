/**
 * The keyword router's small cross-language lexicon: when a folded query contains one of these
 * terms (as a substring, so Japanese without spaces, Korean with particles and German compounds
 * all match), the English catalog words are added to the query. It is part of the router's
 * configuration and hashed with it. It is a baseline router's aid, not SchemaRouter.
 */
export const LEXICON = [
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
];
/** English words the lexicon adds for a folded query. */
export function lexiconExpansion(foldedQuery) {
    return LEXICON.filter(([terms]) => terms.some((t) => foldedQuery.includes(t))).flatMap(([, english]) => english);
}
