"""The few words deckpress itself prints on the PDFs, in the deck's language (English otherwise)."""

from __future__ import annotations

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "actual_size": "Print at 100% / actual size (no \u201cfit to page\u201d)",
        "fronts": "fronts",
        "backs": "backs: print on the back of the page before",
        "gutterfold": "fold on the dashed line, glue, then cut",
        "fold": "fold",
        "sheet": "sheet",
        "rules": "Rules reminder",
        "modes": "Game modes",
        "players": "({n} players)",
        "player": "({n} player)",
        "page": "page",
        "blank": "(intentionally blank)",
        "tokens": "tokens",
        "mm": "mm",
        "long-edge": "flip on the long edge",
        "short-edge": "flip on the short edge",
        "reprint": "reprint",
    },
    "ru": {
        "actual_size": "Печатайте в масштабе 100% / реальный размер (не \u00abпо размеру страницы\u00bb)",
        "fronts": "лицевые стороны",
        "backs": "рубашки: печатать на обороте предыдущего листа",
        "gutterfold": "согните по пунктиру, склейте и разрежьте",
        "fold": "сгиб",
        "sheet": "лист",
        "rules": "Памятка по правилам",
        "modes": "Режимы игры",
        "players": "(игроков: {n})",
        "player": "(игроков: {n})",
        "page": "стр.",
        "blank": "(пустая страница)",
        "tokens": "жетоны",
        "mm": "мм",
        "long-edge": "переворот по длинному краю",
        "short-edge": "переворот по короткому краю",
        "reprint": "перепечатка",
    },
}


def labels(lang: str) -> dict[str, str]:
    """The labels in `lang` (its base language, e.g. ru for ru-RU), English where missing."""
    base = lang.split("-")[0]
    return {**LABELS["en"], **LABELS.get(base, {})}


CALIBRATION: dict[str, dict] = {
    "en": {
        "title": "Duplex calibration sheet",
        "front": [
            "1. Print this sheet double-sided, exactly as you will print the cards: actual size (100%),",
            "   the same printer, paper and tray, flip on the {flip} edge.",
            "2. Hold the printed sheet against a window or a lamp, back side towards you.",
            "3. The cross in the middle of this side shows through. On the back's scales read, in mm,",
            "   X: where the cross's vertical line meets the horizontal scale (+ is to the right),",
            "   Y: where its horizontal line meets the vertical scale (+ is up).",
            "4. Build with  deckpress build --duplex {duplex} --back-offset X,Y  (add X and Y to the",
            "   offset this sheet was built with: {offset}), or write  back_offset: [X, Y]  in your",
            "   print profile. A second calibration sheet built that way should read 0,0.",
            "The bar below must measure 100 mm; if not, the page was scaled: print at actual size.",
        ],
        "back_title": "Back of the calibration sheet",
        "back": [
            "Against the light, read where the front's cross meets these scales (mm):",
            "X on the horizontal scale, Y on the vertical one. Then: --back-offset X,Y",
            "This back was printed with the offset {offset} mm already applied.",
        ],
    },
    "ru": {
        "title": "Лист калибровки двусторонней печати",
        "front": [
            "1. Напечатайте этот лист с двух сторон так же, как будете печатать карты: масштаб 100%,",
            "   тот же принтер, бумага и лоток, переворот по {flip} краю.",
            "2. Посмотрите лист на просвет (окно, лампа), обратной стороной к себе.",
            "3. Крест в центре этой стороны просвечивает. На шкалах обратной стороны прочтите, в мм,",
            "   X: где вертикальная линия креста пересекает горизонтальную шкалу (+ вправо),",
            "   Y: где горизонтальная линия пересекает вертикальную шкалу (+ вверх).",
            "4. Соберите:  deckpress build --duplex {duplex} --back-offset X,Y  (прибавьте X и Y к",
            "   смещению этого листа: {offset}) или напишите  back_offset: [X, Y]  в профиле печати.",
            "   Новый лист калибровки, собранный так, должен показать 0,0.",
            "Линейка внизу должна быть длиной 100 мм; иначе страница масштабирована.",
        ],
        "back_title": "Обратная сторона листа калибровки",
        "back": [
            "На просвет прочтите, где крест с лицевой стороны пересекает шкалы (мм):",
            "X на горизонтальной шкале, Y на вертикальной. Затем: --back-offset X,Y",
            "Эта сторона уже напечатана со смещением {offset} мм.",
        ],
    },
}


def calibration_text(lang: str, duplex: str, offset: tuple[float, float]) -> dict:
    """The calibration sheet's text in `lang`, filled in with the build's duplex mode and offset."""
    base = lang.split("-")[0]
    src = CALIBRATION.get(base, CALIBRATION["en"])
    flip = {"en": {"long-edge": "long", "short-edge": "short"},
            "ru": {"long-edge": "длинному", "short-edge": "короткому"}}.get(base, {}).get(duplex, duplex)
    values = {"flip": flip, "duplex": duplex, "offset": f"{offset[0]:g},{offset[1]:g}"}
    return {"title": src["title"], "back_title": src["back_title"], "mm": labels(lang)["mm"],
            "front": [line.format(**values) for line in src["front"]],
            "back": [line.format(**values) for line in src["back"]]}
