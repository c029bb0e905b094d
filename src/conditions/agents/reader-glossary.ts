/**
 * What a model knows of the corpus's other languages, as the careful reader may: a small
 * bilingual glossary of the domain's recurring words (Japanese, Korean, Spanish, German → the
 * English of the tool texts), matched as substrings, so a request in another language still
 * names its routes and verbs. Only words a reader of the domain knows; nothing from a task.
 */
const GLOSSARY: Readonly<Record<string, readonly string[]>> = {
  export: ["エクスポート", "書き出", "出力", "내보내", "내보낸", "exporta", "exportier", "export"],
  reserve: ["取り置", "確保", "예약해", "reserva", "reservier"],
  dispose: ["廃棄", "폐기", "desech", "elimin", "entsorg"],
  book: ["予約", "예약", "reserv", "buch"],
  create: ["予約", "예약", "reserv", "buch", "作成", "생성", "crea", "anleg"],
  cancel: ["キャンセル", "取り消", "中止", "취소", "cancel", "stornier", "abbrech", "abbruch"],
  rerun: [
    "再実行",
    "再投入",
    "再開",
    "재실행",
    "다시 실행",
    "재제출",
    "relanz",
    "volver a ejecutar",
    "erneut",
    "neu starten",
    "neustart",
  ],
  post: [
    "投稿",
    "送信",
    "連絡",
    "게시",
    "보내",
    "올려",
    "publica",
    "envía",
    "enviar",
    "poste",
    "schick",
    "sende",
  ],
  share: ["共有", "공유", "compart", "teilen", "freigeb"],
  quote: ["見積", "견적", "cotiza", "presupuesto", "angebot"],
  void: ["無効", "무효", "anula", "annul"],
  calibration: ["校正", "교정", "calibra", "kalibrier"],
  sample: ["試料", "サンプル", "시료", "샘플", "muestra", "probe"],
  result: ["結果", "결과", "resultado", "ergebnis"],
  material: ["材料", "재료", "소재", "werkstoff"],
  standard: ["規格", "규격", "norma", "norm"],
  limit: ["限度", "上限", "下限", "한도", "하한", "상한", "límite", "grenzwert"],
  paper: ["論文", "논문", "artículo", "publicación", "veröffentlich"],
  table: ["表", "표", "tabla", "tabelle"],
  citation: ["引用", "인용", "cita", "zitat", "zitier"],
  inventory: ["在庫", "재고", "inventario", "bestand", "lager"],
  stock: ["在庫", "재고", "existencia", "bestand"],
  price: ["価格", "値段", "가격", "단가", "precio", "preis"],
  supplier: ["サプライヤ", "仕入", "공급", "proveedor", "lieferant"],
  job: ["ジョブ", "작업", "잡", "trabajo", "job"],
  reading: ["測定値", "読み", "측정", "lectura", "messwert"],
  instrument: ["装置", "機器", "計器", "장비", "기기", "equipo", "instrumento", "gerät"],
  history: ["履歴", "변경", "이력", "historial", "verlauf", "historie"],
  message: ["メッセージ", "메시지", "mensaje", "nachricht"],
  channel: ["チャンネル", "채널", "canal", "kanal"],
  safety: ["安全データ", "안전보건", "seguridad", "sicherheitsdaten"],
  exposure: ["暴露", "ばく露", "노출", "exposición", "exposition", "arbeitsplatzgrenz"],
  hazard: ["危険", "유해", "위험", "peligro", "gefahr"],
  custody: ["受け渡し", "保管履歴", "인수인계", "custodia", "übergabe"],
  status: ["状態", "ステータス", "상태", "estado", "zustand", "status"],
  search: ["探", "検索", "찾아", "검색", "busca", "suche", "such d"],
  runtime: ["ランタイム", "런타임", "entorno", "laufzeit"],
  availability: ["空き", "빈 ", "가능", "disponib", "verfügbar", "frei"],
  property: ["物性", "특성", "물성", "propiedad", "eigenschaft", "kennwert"],
  current: ["現在", "현재", "actual", "vigente", "aktuell"],
  approved: ["承認", "승인", "aprobad", "freigegeben"],
  temperature: ["温度", "온도", "temperatura", "temperatur"],
  density: ["密度", "밀도", "densidad", "dichte"],
  strength: ["強度", "강도", "resistencia", "festigkeit"],
  conductivity: ["伝導", "전도", "conductividad", "leitfähigkeit"],
  artifact: ["成果物", "データセット", "데이터셋", "dataset", "datensatz", "conjunto de datos"],
  file: ["ファイル", "파일", "fichero", "archivo", "datei"],
};

/** The English words of the glossary the request names in its own language. */
export function glossaryWords(request: string): string[] {
  const text = request.toLowerCase();
  return Object.entries(GLOSSARY)
    .filter(([, spellings]) => spellings.some((s) => text.includes(s.toLowerCase())))
    .map(([english]) => english);
}
