// User-facing text in Spanish and English. Keys are checked: `t` throws in tests on an unknown key
// and the test suite asserts both languages have the same keys and placeholders.
// Terms follow the seed pages: "Pasar", "Rey", F/P, "Deshacer jugada", "Nueva partida",
// "Cambiar de modo", "Rendirse", "Salto largo", "en este dispositivo".

const es = {
  'app.title': 'Damas',
  'app.tagline': 'Cinco juegos de saltar, sin conexión',
  'nav.home': 'Inicio',
  'nav.back': 'Volver',
  'nav.settings': 'Ajustes',
  'nav.rules': 'Reglas',
  'nav.menu': 'Menú',

  'game.english': 'Damas inglesas',
  'game.international': 'Damas internacionales',
  'game.turkish': 'Damas turcas',
  'game.diamond': 'Damas chinas (Diamond Game)',
  'game.capture': 'Damas chinas de captura',
  'game.english.short': 'Inglesas',
  'game.international.short': 'Internacionales',
  'game.turkish.short': 'Turcas',
  'game.diamond.short': 'Diamond Game',
  'game.capture.short': 'De captura',
  'game.english.blurb': '8×8, casillas oscuras, en diagonal',
  'game.international.blurb': '10×10, damas voladoras, ley de la mayoría',
  'game.turkish.blurb': '8×8, todas las casillas, de frente y de lado',
  'game.diamond.blurb': 'Estrella de 121 puntos, con rey, 2 o 3 jugadores',
  'game.capture.blurb': 'Estrella, piezas de todos, cada salto captura',

  'home.play': 'Jugar',
  'home.games': 'Elige un juego',
  'home.unfinished': 'Partidas sin terminar',
  'home.none': 'No hay partidas sin terminar.',
  'home.resume': 'Continuar',
  'home.delete': 'Borrar',
  'home.delete.confirm': '¿Borrar esta partida?',
  'home.moves.one': '{n} jugada',
  'home.moves.other': '{n} jugadas',
  'home.turn': 'turno de {name}',
  'home.you': 'Tú: {seat}',
  'home.lastgame': 'Tu última partida: {game}',
  'home.notnow': 'Ahora no',
  'act.abandon.confirm': '¿Dejar esta partida y empezar otra?',
  'act.abandon.detail': 'Queda guardada en «Partidas sin terminar» para seguirla luego.',
  'home.rules': 'Reglas y consejos',
  'home.players.one': '{n} jugador',
  'home.players.other': '{n} jugadores',

  'setup.title': 'Nueva partida: {game}',
  'setup.players': 'Jugadores',
  'setup.mode': 'Modo',
  'setup.mode.cpu': 'Contra la CPU',
  'setup.mode.local': 'En este dispositivo',
  'setup.mode.local.hint': 'Se pasan el dispositivo por turnos',
  'setup.level': 'Nivel',
  'setup.colour': 'Tu color',
  'setup.longjump': 'Salto largo',
  'setup.longjump.hint': 'También se captura con saltos largos',
  'setup.start': 'Empezar',
  'setup.youplay': 'Juegas con {seat} y empiezas tú.',
  'setup.first': 'empieza',

  'level.easy': 'Fácil',
  'level.medium': 'Medio',
  'level.hard': 'Difícil',

  'seat.white': 'Blancas',
  'seat.black': 'Negras',
  'seat.red': 'Rojo',
  'seat.yellow': 'Amarillo',
  'seat.green': 'Verde',
  'seat.player': 'Jugador {n}',

  'mode.cpu': 'contra la CPU ({level})',
  'mode.local': 'en este dispositivo',

  'act.undo': 'Deshacer jugada',
  'act.redo': 'Rehacer',
  'act.new': 'Nueva partida',
  'act.mode': 'Cambiar de modo',
  'act.resign': 'Rendirse',
  'act.resign.confirm': '¿Seguro que quieres rendirte?',
  'act.resign.confirm3': 'Si te rindes, gana quien tenga sus fichas más cerca del destino.',
  'act.pass': 'Pasar',
  'act.rematch': 'Revancha',
  'act.rematch.rotate': 'Otra con los puestos rotados',
  'act.viewboard': 'Ver el tablero',
  'act.yes': 'Sí',
  'act.no': 'No',
  'act.ok': 'Entendido',
  'act.stophere': 'Parar aquí',
  'act.flip': 'Girar el tablero',
  'act.back': 'Volver a elegir ficha',

  'panel.title': 'Jugar con botones',
  'panel.pieces': 'Elige ficha',
  'panel.dests': 'Elige destino',
  'panel.king': 'Rey',
  'panel.step': '1 paso',
  'panel.jumps.one': '1 salto',
  'panel.jumps.other': '{n} saltos',
  'panel.rows.one': '{sign}{n} fila',
  'panel.rows.other': '{sign}{n} filas',
  'panel.rows.zero': 'misma fila',
  'panel.captures.one': 'captura 1',
  'panel.captures.other': 'captura {n}',
  'panel.move': 'a {to}',
  'panel.wait': 'Espera tu turno.',
  'panel.over': 'La partida ha terminado.',
  'panel.mustcapture': 'Hay que capturar: solo se pueden mover las fichas con aro.',
  'panel.continue': 'Sigue la captura desde {cell}.',

  'status.turn': 'Turno de {name}',
  'status.yourturn': 'Tu turno ({name})',
  'status.thinking': '{name} está pensando…',
  'status.last': 'Última jugada',
  'status.nomoves': 'Aún no se ha jugado.',
  'status.home': 'En el destino',
  'status.captures': 'Capturas',
  'status.pieces': 'Fichas',
  'status.kingtohome': 'Lleva el rey a ◎',
  'status.goal': 'Lleva tus 15 fichas a la punta de enfrente y el rey a ◎.',
  'status.mustpass': 'No puedes mover ninguna ficha: pulsa «Pasar».',
  'status.moves': 'Jugadas ({n})',

  'move.step': '{name} mueve de {from} a {to} (1 paso)',
  'move.jumps.one': '{name} mueve de {from} a {to} (1 salto)',
  'move.jumps.other': '{name} mueve de {from} a {to} ({n} saltos)',
  'move.captures.one': '{name} captura de {from} a {to} (1 pieza)',
  'move.captures.other': '{name} captura de {from} a {to} ({n} piezas)',
  'move.plain': '{name} mueve de {from} a {to}',
  'move.pass': '{name} pasa',
  'move.selected.one': 'Ficha {cell} elegida: {n} destino',
  'move.selected.other': 'Ficha {cell} elegida: {n} destinos',
  'move.preview': 'Destino {cell}: toca otra vez para mover',
  'move.stopped': 'La ficha se detiene en {cell}: elige el siguiente salto',

  'draw.no_progress.one': 'Tablas por falta de progreso en {n} jugada',
  'draw.no_progress.other': 'Tablas por falta de progreso en {n} jugadas',
  'draw.move_limit.one': 'Tablas por límite de jugadas en {n} jugada',
  'draw.move_limit.other': 'Tablas por límite de jugadas en {n} jugadas',
  'draw.endgame_count.one': 'Tablas por recuento en {n} jugada',
  'draw.endgame_count.other': 'Tablas por recuento en {n} jugadas',
  'draw.repetition.one': 'Tablas por repetición en {n} jugada',
  'draw.repetition.other': 'Tablas por repetición en {n} jugadas',

  'result.title': 'Fin de la partida',
  'result.win': 'Gana {name}',
  'result.youwin': '¡Has ganado!',
  'result.youlose': 'Has perdido',
  'result.youlose.named': 'Has perdido: gana {name}',
  'result.draw': 'Tablas',
  'result.you': 'Tú',
  'result.fig.moves': 'Jugadas',
  'result.fig.captures': 'Capturas',
  'result.fig.home': 'En el destino',
  'result.fig.time': 'Tiempo',
  'reason.no_legal_moves': '{loser} no tiene jugadas.',
  'reason.no_legal_moves.won': 'Tu rival no tiene jugadas.',
  'reason.no_legal_moves.lost': 'No te quedan jugadas.',
  'reason.destination_reached': '{winner}: todas sus fichas en el destino y el rey en ◎.',
  'reason.destination_reached.won': 'Todas tus fichas en el destino y tu rey en ◎.',
  'reason.destination_reached.lost': '{winner} ha llevado todas sus fichas al destino y su rey a ◎.',
  'reason.no_jumps_left': 'No quedan saltos: {winner} ha capturado más.',
  'reason.no_jumps_left.won': 'No quedan saltos y has capturado más que nadie.',
  'reason.no_jumps_left.lost': 'No quedan saltos y {winner} ha capturado más.',
  'reason.repetition': 'La misma posición por tercera vez.',
  'reason.no_progress': 'Demasiadas jugadas sin progreso.',
  'reason.move_limit': 'Se alcanzó el límite de jugadas.',
  'reason.insufficient_material': 'Nadie puede ganar con este material.',
  'reason.endgame_count': 'El bando fuerte no ganó a tiempo.',
  'reason.all_passed': 'Todos pasaron seguidos.',
  'reason.resignation': 'Abandono.',
  'reason.resignation.named': '{loser} se ha rendido.',
  'reason.resignation.won': 'Tu rival se ha rendido.',
  'reason.resignation.lost': 'Te has rendido.',

  'settings.title': 'Ajustes',
  'settings.language': 'Idioma',
  'settings.language.system': 'El del sistema',
  'settings.skin': 'Aspecto',
  'settings.skin.wood': 'Madera clásica',
  'settings.skin.candy': 'Caramelo',
  'settings.sound': 'Sonido',
  'settings.animations': 'Animaciones',
  'settings.turnboard': 'Girar el tablero hacia quien mueve',
  'settings.turnboard.hint': 'Damas en este dispositivo: el tablero se da la vuelta en cada turno.',
  'settings.on': 'Sí',
  'settings.off': 'No',
  'settings.reduced': 'Tu sistema pide menos movimiento: las animaciones se acortan.',

  'rules.title': 'Reglas: {game}',
  'rules.tab.rules': 'Reglas',
  'rules.tab.tips': 'Consejos',
  'rules.tab.faq': 'Preguntas',

  'board.label': 'Tablero de {game}',
  'board.cell': 'Casilla {cell}',
  'board.piece': '{seat} en {cell}',
  'board.king': 'rey de {seat} en {cell}',
  'board.neutral': 'Pieza en {cell}',

  'error.unknown_game': 'Juego desconocido.',
  'error.bad_players': 'Número de jugadores no válido.',
  'error.illegal_move': 'Esa jugada no es legal.',
  'error.not_your_turn': 'No es tu turno.',
  'error.game_over': 'La partida ya ha terminado.',
  'error.no_such_game': 'Esa partida ya no existe.',
  'error.bad_level': 'Nivel no válido.',
  'error.cancelled': 'Cancelado.',
  'error.nothing_to_undo': 'No hay nada que deshacer.',
  'error.nothing_to_redo': 'No hay nada que rehacer.',
  'error.storage': 'No se pudo guardar la partida.',
  'error.bad_input': 'Datos no válidos.',
  'error.not_recorded': 'Esa jugada no está grabada en la demostración del navegador.',
  'error.unknown': 'Algo ha fallado: {message}',
  'notice.corrupt_saves': 'El archivo de partidas guardadas estaba dañado y se ha apartado; no se ha borrado.',
  'notice.corrupt_game': 'Una partida guardada no se podía leer o reproducir con las reglas y se ha apartado; las demás siguen aquí.',
  'notice.corrupt_settings': 'El archivo de ajustes estaba dañado y se ha apartado; se usan los ajustes de siempre.',
  'notice.corrupt_progress': 'No se ha podido leer cuántas partidas has terminado contra la CPU; se cuenta desde cero.',
  'notice.mock': 'Demostración en el navegador: se reproducen partidas grabadas por el motor y solo se aceptan sus jugadas.',
};

/** @type {Record<keyof typeof es, string>} */
const en = {
  'app.title': 'Damas',
  'app.tagline': 'Five jumping games, offline',
  'nav.home': 'Home',
  'nav.back': 'Back',
  'nav.settings': 'Settings',
  'nav.rules': 'Rules',
  'nav.menu': 'Menu',

  'game.english': 'English checkers',
  'game.international': 'International draughts',
  'game.turkish': 'Turkish draughts',
  'game.diamond': 'Chinese checkers (Diamond Game)',
  'game.capture': 'Capture Chinese checkers',
  'game.english.short': 'English',
  'game.international.short': 'International',
  'game.turkish.short': 'Turkish',
  'game.diamond.short': 'Diamond Game',
  'game.capture.short': 'Capture',
  'game.english.blurb': '8×8, dark squares, diagonal moves',
  'game.international.blurb': '10×10, flying kings, majority capture',
  'game.turkish.blurb': '8×8, every square, forward and sideways',
  'game.diamond.blurb': '121-hole star with a king, 2 or 3 players',
  'game.capture.blurb': 'Star, shared pieces, every jump captures',

  'home.play': 'Play',
  'home.games': 'Choose a game',
  'home.unfinished': 'Unfinished games',
  'home.none': 'No unfinished games.',
  'home.resume': 'Resume',
  'home.delete': 'Delete',
  'home.delete.confirm': 'Delete this game?',
  'home.moves.one': '{n} move',
  'home.moves.other': '{n} moves',
  'home.turn': '{name} to move',
  'home.you': 'You: {seat}',
  'home.lastgame': 'Your last game: {game}',
  'home.notnow': 'Not now',
  'act.abandon.confirm': 'Leave this game and start another?',
  'act.abandon.detail': 'It stays under “Unfinished games” to carry on later.',
  'home.rules': 'Rules and tips',
  'home.players.one': '{n} player',
  'home.players.other': '{n} players',

  'setup.title': 'New game: {game}',
  'setup.players': 'Players',
  'setup.mode': 'Mode',
  'setup.mode.cpu': 'Against the CPU',
  'setup.mode.local': 'On this device',
  'setup.mode.local.hint': 'Pass the device around, turn by turn',
  'setup.level': 'Level',
  'setup.colour': 'Your colour',
  'setup.longjump': 'Long jump',
  'setup.longjump.hint': 'Long jumps capture too',
  'setup.start': 'Start',
  'setup.youplay': 'You play {seat} and move first.',
  'setup.first': 'moves first',

  'level.easy': 'Easy',
  'level.medium': 'Medium',
  'level.hard': 'Hard',

  'seat.white': 'White',
  'seat.black': 'Black',
  'seat.red': 'Red',
  'seat.yellow': 'Yellow',
  'seat.green': 'Green',
  'seat.player': 'Player {n}',

  'mode.cpu': 'vs CPU ({level})',
  'mode.local': 'on this device',

  'act.undo': 'Undo move',
  'act.redo': 'Redo',
  'act.new': 'New game',
  'act.mode': 'Change mode',
  'act.resign': 'Resign',
  'act.resign.confirm': 'Do you really want to resign?',
  'act.resign.confirm3': 'If you resign, the player whose pieces are closest to home wins.',
  'act.pass': 'Pass',
  'act.rematch': 'Rematch',
  'act.rematch.rotate': 'Again with seats rotated',
  'act.viewboard': 'See the board',
  'act.yes': 'Yes',
  'act.no': 'No',
  'act.ok': 'Got it',
  'act.stophere': 'Stop here',
  'act.flip': 'Flip the board',
  'act.back': 'Pick another piece',

  'panel.title': 'Play with buttons',
  'panel.pieces': 'Pick a piece',
  'panel.dests': 'Pick a destination',
  'panel.king': 'King',
  'panel.step': '1 step',
  'panel.jumps.one': '1 jump',
  'panel.jumps.other': '{n} jumps',
  'panel.rows.one': '{sign}{n} row',
  'panel.rows.other': '{sign}{n} rows',
  'panel.rows.zero': 'same row',
  'panel.captures.one': 'takes 1',
  'panel.captures.other': 'takes {n}',
  'panel.move': 'to {to}',
  'panel.wait': 'Wait for your turn.',
  'panel.over': 'The game is over.',
  'panel.mustcapture': 'A capture is compulsory: only the ringed pieces can move.',
  'panel.continue': 'Carry on capturing from {cell}.',

  'status.turn': '{name} to move',
  'status.yourturn': 'Your turn ({name})',
  'status.thinking': '{name} is thinking…',
  'status.last': 'Last move',
  'status.nomoves': 'No move played yet.',
  'status.home': 'Home',
  'status.captures': 'Captures',
  'status.pieces': 'Pieces',
  'status.kingtohome': 'Bring the king to ◎',
  'status.goal': 'Bring your 15 pieces to the opposite point and the king onto ◎.',
  'status.mustpass': 'You cannot move any piece: press “Pass”.',
  'status.moves': 'Moves ({n})',

  'move.step': '{name} moves from {from} to {to} (1 step)',
  'move.jumps.one': '{name} moves from {from} to {to} (1 jump)',
  'move.jumps.other': '{name} moves from {from} to {to} ({n} jumps)',
  'move.captures.one': '{name} captures from {from} to {to} (1 piece)',
  'move.captures.other': '{name} captures from {from} to {to} ({n} pieces)',
  'move.plain': '{name} moves from {from} to {to}',
  'move.pass': '{name} passes',
  'move.selected.one': 'Piece {cell} picked: {n} destination',
  'move.selected.other': 'Piece {cell} picked: {n} destinations',
  'move.preview': 'Destination {cell}: tap again to move',
  'move.stopped': 'The piece stops on {cell}: choose the next jump',

  'draw.no_progress.one': 'Draw for lack of progress in {n} move',
  'draw.no_progress.other': 'Draw for lack of progress in {n} moves',
  'draw.move_limit.one': 'Draw by move limit in {n} move',
  'draw.move_limit.other': 'Draw by move limit in {n} moves',
  'draw.endgame_count.one': 'Draw by the endgame count in {n} move',
  'draw.endgame_count.other': 'Draw by the endgame count in {n} moves',
  'draw.repetition.one': 'Draw by repetition in {n} move',
  'draw.repetition.other': 'Draw by repetition in {n} moves',

  'result.title': 'Game over',
  'result.win': '{name} wins',
  'result.youwin': 'You win!',
  'result.youlose': 'You lost',
  'result.youlose.named': 'You lost: {name} wins',
  'result.draw': 'Draw',
  'result.you': 'You',
  'result.fig.moves': 'Moves',
  'result.fig.captures': 'Captures',
  'result.fig.home': 'Home',
  'result.fig.time': 'Time',
  'reason.no_legal_moves': '{loser} has no move left.',
  'reason.no_legal_moves.won': 'Your opponent has no move left.',
  'reason.no_legal_moves.lost': 'You have no move left.',
  'reason.destination_reached': '{winner}: every piece home and the king on ◎.',
  'reason.destination_reached.won': 'Every piece of yours home and your king on ◎.',
  'reason.destination_reached.lost': '{winner} brought every piece home and the king onto ◎.',
  'reason.no_jumps_left': 'No jump is left: {winner} took the most.',
  'reason.no_jumps_left.won': 'No jump is left and you took the most.',
  'reason.no_jumps_left.lost': 'No jump is left and {winner} took the most.',
  'reason.repetition': 'The same position for the third time.',
  'reason.no_progress': 'Too many moves without progress.',
  'reason.move_limit': 'The move limit was reached.',
  'reason.insufficient_material': 'Nobody can win with this material.',
  'reason.endgame_count': 'The stronger side did not win in time.',
  'reason.all_passed': 'Everybody passed in a row.',
  'reason.resignation': 'Resignation.',
  'reason.resignation.named': '{loser} resigned.',
  'reason.resignation.won': 'Your opponent resigned.',
  'reason.resignation.lost': 'You resigned.',

  'settings.title': 'Settings',
  'settings.language': 'Language',
  'settings.language.system': 'System language',
  'settings.skin': 'Look',
  'settings.skin.wood': 'Classic wood',
  'settings.skin.candy': 'Candy',
  'settings.sound': 'Sound',
  'settings.animations': 'Animations',
  'settings.turnboard': 'Turn the board to the player to move',
  'settings.turnboard.hint': 'Draughts on this device: the board turns round at each turn.',
  'settings.on': 'On',
  'settings.off': 'Off',
  'settings.reduced': 'Your system asks for reduced motion: animations are shortened.',

  'rules.title': 'Rules: {game}',
  'rules.tab.rules': 'Rules',
  'rules.tab.tips': 'Tips',
  'rules.tab.faq': 'FAQ',

  'board.label': '{game} board',
  'board.cell': 'Square {cell}',
  'board.piece': '{seat} on {cell}',
  'board.king': '{seat} king on {cell}',
  'board.neutral': 'Piece on {cell}',

  'error.unknown_game': 'Unknown game.',
  'error.bad_players': 'Invalid number of players.',
  'error.illegal_move': 'That move is not legal.',
  'error.not_your_turn': 'It is not your turn.',
  'error.game_over': 'The game is already over.',
  'error.no_such_game': 'That game no longer exists.',
  'error.bad_level': 'Invalid level.',
  'error.cancelled': 'Cancelled.',
  'error.nothing_to_undo': 'Nothing to undo.',
  'error.nothing_to_redo': 'Nothing to redo.',
  'error.storage': 'The game could not be saved.',
  'error.bad_input': 'Invalid data.',
  'error.not_recorded': 'That move is not recorded in the browser demo.',
  'error.unknown': 'Something went wrong: {message}',
  'notice.corrupt_saves': 'The saved-games file was damaged and has been set aside, not deleted.',
  'notice.corrupt_game': 'A saved game could not be read or replayed by the rules and has been set aside; the others are still here.',
  'notice.corrupt_settings': 'The settings file was damaged and has been set aside; the defaults are in use.',
  'notice.corrupt_progress': 'The count of games you finished against the CPU could not be read; counting starts again from zero.',
  'notice.mock': 'Browser demo: it replays games recorded by the engine and accepts only their moves.',
};

export const STRINGS = { es, en };
export const LANGUAGES = ['es', 'en'];

let current = 'es';
export let strict = false;
export function setStrict(v) { strict = v; }

/** The language to use: the setting, else the system's, else Spanish. */
export function resolveLanguage(setting, systemLanguages = []) {
  if (setting && STRINGS[setting]) return setting;
  for (const l of systemLanguages) {
    const base = String(l).toLowerCase().split('-')[0];
    if (STRINGS[base]) return base;
  }
  return 'es';
}

/** Whether a key has a text (for optional variants of a text). */
export function hasText(key, lang = current) { return STRINGS[lang][key] !== undefined; }

export function setLanguage(lang) { current = STRINGS[lang] ? lang : 'es'; }
export function language() { return current; }

const pluralRules = new Map();
/** The CLDR plural category of a count in a language (`one`, `other`, …). */
export function pluralCategory(n, lang = current) {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  return pluralRules.get(lang).select(n);
}

/**
 * A text by key. A counted text is a family `key.one` / `key.other` (one key per CLDR category the
 * language needs; a missing category, such as Spanish "many", falls back to `.other`): `t(key,
 * {n})` picks the member by `Intl.PluralRules`, so no caller can write "1 jugadas".
 * @param {string} key
 * @param {Record<string, string|number>} [params]
 */
export function t(key, params = {}, lang = current) {
  const table = STRINGS[lang];
  let s = table[key];
  if (s === undefined && typeof params.n === 'number' && table[key + '.other'] !== undefined) {
    s = table[key + '.' + pluralCategory(params.n, lang)] ?? table[key + '.other'];
  }
  if (s === undefined) {
    if (strict) throw new Error('missing i18n key ' + key);
    s = es[key] ?? key;
  }
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

/** A counted text: `t(base, {n, …params})`. */
export function tn(base, n, params = {}, lang = current) {
  return t(base, { ...params, n }, lang);
}

/** A seat's display name from the engine's name ("red", "white", "1"…). */
export function seatName(name, lang = current) {
  if (/^\d+$/.test(String(name))) return t('seat.player', { n: name }, lang);
  const key = 'seat.' + name;
  return STRINGS[lang][key] !== undefined ? STRINGS[lang][key] : String(name);
}
