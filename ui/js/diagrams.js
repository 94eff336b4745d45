// Rules diagrams: a position in the game's text format (none: the start) and the moves played
// from it, drawn by the app's board renderer; the last move is marked. The object is plain JSON
// (src-tauri/tests/diagrams.rs reads it and replays every diagram through the `diagram` command).
export const DIAGRAMS = {
  "games": {
    "english": [
      {
        "caption": {
          "es": "Posición inicial: las negras salen primero.",
          "en": "The start: Black moves first."
        },
        "moves": []
      },
      {
        "caption": {
          "es": "Captura: la ficha negra salta a la blanca de 18 y cae en 23.",
          "en": "A capture: the black man jumps the white one on 18 and lands on 23."
        },
        "position": "B:W18:B14",
        "moves": [
          "14x23"
        ],
        "expect": {
          "captures": 1,
          "winner": 0
        }
      },
      {
        "caption": {
          "es": "La dama se mueve una casilla en diagonal, también hacia atrás.",
          "en": "A king moves one square diagonally, backwards too."
        },
        "position": "W:WK18:B1,3",
        "moves": [
          "18-23"
        ],
        "expect": {
          "captures": 0
        }
      }
    ],
    "international": [
      {
        "caption": {
          "es": "Posición inicial: salen las blancas.",
          "en": "The start: White moves first."
        },
        "moves": []
      },
      {
        "caption": {
          "es": "Captura: la ficha blanca de 28 salta a la negra de 23.",
          "en": "A capture: the white man on 28 jumps the black one on 23."
        },
        "position": "W:W28:B23",
        "moves": [
          "28x19"
        ],
        "expect": {
          "captures": 1
        }
      },
      {
        "caption": {
          "es": "La dama vuela: captura a distancia y cae donde quiera tras la pieza.",
          "en": "The flying king captures from afar and lands anywhere beyond."
        },
        "position": "W:WK46:B28",
        "moves": [
          "46x14"
        ],
        "expect": {
          "captures": 1
        }
      }
    ],
    "turkish": [
      {
        "caption": {
          "es": "Posición inicial: dieciséis fichas por bando en su segunda y tercera fila.",
          "en": "The start: sixteen men a side on their second and third ranks."
        },
        "moves": []
      },
      {
        "caption": {
          "es": "Captura de frente: d4 salta a d5 y cae en d6.",
          "en": "A capture straight ahead: d4 jumps d5 and lands on d6."
        },
        "position": "W:Wd4:Bd5,h7",
        "moves": [
          "d4xd6"
        ],
        "expect": {
          "captures": 1
        }
      },
      {
        "caption": {
          "es": "La dama recorre filas y columnas a cualquier distancia.",
          "en": "A king runs along ranks and files at any distance."
        },
        "position": "W:WKa1:Bh7",
        "moves": [
          "a1-a6"
        ],
        "expect": {
          "captures": 0
        }
      }
    ],
    "diamond": [
      {
        "caption": {
          "es": "Posición inicial con dos jugadores: cada rey en el vértice de su punta.",
          "en": "The two-player start: each king on the apex of its point."
        },
        "players": 2,
        "moves": []
      },
      {
        "caption": {
          "es": "El rey salta una línea de fichas seguidas y cae en el primer hueco libre.",
          "en": "The king jumps a line of men in a row and lands on the first empty hole."
        },
        "players": 2,
        "moves": [
          "F1P1-F6P4"
        ],
        "expect": {
          "jumps": 1
        }
      },
      {
        "caption": {
          "es": "Victoria: el destino lleno y el rey propio en ◎.",
          "en": "The win: the destination full and one's own king on ◎."
        },
        "players": 2,
        "position": "diamond:2 1/2/3/4/13/12/11/10/y3r4/yy8/yyy8/yyyy3r4/Yyyyyrrr.4/rrrr/rrr/rr/R r 100 0",
        "moves": [
          "F12P8-F13P9"
        ],
        "expect": {
          "winner": 0
        }
      }
    ],
    "capture": [
      {
        "caption": {
          "es": "Posición inicial: el hexágono lleno salvo el centro; las piezas son de todos.",
          "en": "The start: the hexagon full but for its centre; the pieces belong to nobody."
        },
        "players": 2,
        "moves": []
      },
      {
        "caption": {
          "es": "Cada salto captura la pieza saltada.",
          "en": "Every jump captures the piece jumped."
        },
        "players": 2,
        "moves": [
          "F6P4xF4P1"
        ],
        "expect": {
          "captures": 1
        }
      }
    ]
  }
};
