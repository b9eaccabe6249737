/// A Figma file's variables as the REST API answers GET /v1/files/:key/variables/local (the
/// shape its documentation gives), made to hold what real design systems do: a one-mode
/// collection of primitives, two collections with modes (a colour scheme, brands), aliases
/// within a collection, across collections and to a linked library's variable, a variable
/// deleted but still referenced, lengths, weights and font families by their scopes, values no
/// DTCG type holds, a name with a dot, a token that is also a group, an alias to a variable the
/// file lacks and two aliases that loop.
enum FigmaExample {
    static let answer = ##"""
    {
      "status": 200,
      "error": false,
      "meta": {
        "variableCollections": {
          "VariableCollectionId:1:0": {"id": "VariableCollectionId:1:0", "name": "Primitives", "key": "k1", "remote": false, "hiddenFromPublishing": false,
            "defaultModeId": "1:0", "modes": [{"modeId": "1:0", "name": "Value"}], "variableIds": ["VariableID:1:1", "VariableID:1:2", "VariableID:1:3", "VariableID:1:4", "VariableID:1:5", "VariableID:1:6", "VariableID:1:7"]},
          "VariableCollectionId:2:0": {"id": "VariableCollectionId:2:0", "name": "Semantic", "key": "k2", "remote": false, "hiddenFromPublishing": false,
            "defaultModeId": "2:0", "modes": [{"modeId": "2:0", "name": "Light"}, {"modeId": "2:1", "name": "Dark"}], "variableIds": []},
          "VariableCollectionId:3:0": {"id": "VariableCollectionId:3:0", "name": "Brand", "key": "k3", "remote": false, "hiddenFromPublishing": false,
            "defaultModeId": "3:0", "modes": [{"modeId": "3:0", "name": "Acme"}, {"modeId": "3:1", "name": "Globex"}], "variableIds": []},
          "VariableCollectionId:4:0": {"id": "VariableCollectionId:4:0", "name": "Spacing & Type", "key": "k4", "remote": false, "hiddenFromPublishing": false,
            "defaultModeId": "4:0", "modes": [{"modeId": "4:0", "name": "Default"}], "variableIds": []},
          "VariableCollectionId:abc/9:0": {"id": "VariableCollectionId:abc/9:0", "name": "Library colors", "key": "k9", "remote": true, "hiddenFromPublishing": false,
            "defaultModeId": "9:0", "modes": [{"modeId": "9:0", "name": "Mode 1"}], "variableIds": ["VariableID:abc/9:1"]}
        },
        "variables": {
          "VariableID:1:1": {"id": "VariableID:1:1", "name": "blue/500", "key": "a1", "variableCollectionId": "VariableCollectionId:1:0", "resolvedType": "COLOR",
            "valuesByMode": {"1:0": {"r": 0, "g": 0.4000000059604645, "b": 0.800000011920929, "a": 1}}, "remote": false, "description": "Brand blue", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:1:2": {"id": "VariableID:1:2", "name": "blue/100", "key": "a2", "variableCollectionId": "VariableCollectionId:1:0", "resolvedType": "COLOR",
            "valuesByMode": {"1:0": {"r": 0.8, "g": 0.9, "b": 1, "a": 1}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:1:3": {"id": "VariableID:1:3", "name": "gray/900", "key": "a3", "variableCollectionId": "VariableCollectionId:1:0", "resolvedType": "COLOR",
            "valuesByMode": {"1:0": {"r": 0.1, "g": 0.1, "b": 0.12, "a": 1}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:1:4": {"id": "VariableID:1:4", "name": "gray/50", "key": "a4", "variableCollectionId": "VariableCollectionId:1:0", "resolvedType": "COLOR",
            "valuesByMode": {"1:0": {"r": 0.98, "g": 0.98, "b": 0.99, "a": 1}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:1:5": {"id": "VariableID:1:5", "name": "orange/500", "key": "a5", "variableCollectionId": "VariableCollectionId:1:0", "resolvedType": "COLOR",
            "valuesByMode": {"1:0": {"r": 1, "g": 0.4, "b": 0, "a": 1}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:1:6": {"id": "VariableID:1:6", "name": "green/500", "key": "a6", "variableCollectionId": "VariableCollectionId:1:0", "resolvedType": "COLOR",
            "valuesByMode": {"1:0": {"r": 0.1, "g": 0.7, "b": 0.3, "a": 0.5}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:1:7": {"id": "VariableID:1:7", "name": "old/red", "key": "a7", "variableCollectionId": "VariableCollectionId:1:0", "resolvedType": "COLOR",
            "valuesByMode": {"1:0": {"r": 0.9, "g": 0.1, "b": 0.1, "a": 1}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}, "deletedButReferenced": true},

          "VariableID:3:1": {"id": "VariableID:3:1", "name": "brand/accent", "key": "b1", "variableCollectionId": "VariableCollectionId:3:0", "resolvedType": "COLOR",
            "valuesByMode": {"3:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:1"}, "3:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:5"}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:3:2": {"id": "VariableID:3:2", "name": "brand/font", "key": "b2", "variableCollectionId": "VariableCollectionId:3:0", "resolvedType": "STRING",
            "valuesByMode": {"3:0": "Inter", "3:1": "Roboto"}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["FONT_FAMILY"], "codeSyntax": {}},

          "VariableID:2:1": {"id": "VariableID:2:1", "name": "color/bg", "key": "s1", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
            "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:4"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:3"}}, "remote": false, "description": "Page background", "hiddenFromPublishing": false, "scopes": ["FRAME_FILL"], "codeSyntax": {}},
          "VariableID:2:2": {"id": "VariableID:2:2", "name": "color/bg/hover", "key": "s2", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
            "valuesByMode": {"2:0": {"r": 0.95, "g": 0.95, "b": 0.96, "a": 1}, "2:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:2:1"}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["FRAME_FILL"], "codeSyntax": {}},
          "VariableID:2:3": {"id": "VariableID:2:3", "name": "color/accent", "key": "s3", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
            "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:3:1"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:3:1"}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:2:4": {"id": "VariableID:2:4", "name": "color/link", "key": "s4", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
            "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:abc/9:1"}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["TEXT_FILL"], "codeSyntax": {}},
          "VariableID:2:5": {"id": "VariableID:2:5", "name": "color/broken", "key": "s5", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
            "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:404:404"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:2"}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:2:6": {"id": "VariableID:2:6", "name": "color/loop-a", "key": "s6", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
            "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:2:7"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:2:7"}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:2:7": {"id": "VariableID:2:7", "name": "color/loop-b", "key": "s7", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
            "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:2:6"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:2:6"}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:2:8": {"id": "VariableID:2:8", "name": "opacity/disabled", "key": "s8", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "FLOAT",
            "valuesByMode": {"2:0": 0.4000000059604645, "2:1": 0.30000001192092896}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["OPACITY"], "codeSyntax": {}},
          "VariableID:2:9": {"id": "VariableID:2:9", "name": "color/danger", "key": "s9", "variableCollectionId": "VariableCollectionId:2:0", "resolvedType": "COLOR",
            "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:7"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "VariableID:1:7"}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},

          "VariableID:4:1": {"id": "VariableID:4:1", "name": "space/1.5", "key": "t1", "variableCollectionId": "VariableCollectionId:4:0", "resolvedType": "FLOAT",
            "valuesByMode": {"4:0": 6}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["GAP", "WIDTH_HEIGHT"], "codeSyntax": {}},
          "VariableID:4:2": {"id": "VariableID:4:2", "name": "radius/md", "key": "t2", "variableCollectionId": "VariableCollectionId:4:0", "resolvedType": "FLOAT",
            "valuesByMode": {"4:0": 8}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["CORNER_RADIUS"], "codeSyntax": {}},
          "VariableID:4:3": {"id": "VariableID:4:3", "name": "font/weight/strong", "key": "t3", "variableCollectionId": "VariableCollectionId:4:0", "resolvedType": "STRING",
            "valuesByMode": {"4:0": "Semi Bold"}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["FONT_STYLE"], "codeSyntax": {}},
          "VariableID:4:4": {"id": "VariableID:4:4", "name": "font/weight/heading", "key": "t4", "variableCollectionId": "VariableCollectionId:4:0", "resolvedType": "FLOAT",
            "valuesByMode": {"4:0": 700}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["FONT_WEIGHT"], "codeSyntax": {}},
          "VariableID:4:5": {"id": "VariableID:4:5", "name": "font/style/fancy", "key": "t5", "variableCollectionId": "VariableCollectionId:4:0", "resolvedType": "STRING",
            "valuesByMode": {"4:0": "Wavy"}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["FONT_STYLE"], "codeSyntax": {}},
          "VariableID:4:6": {"id": "VariableID:4:6", "name": "flag/beta", "key": "t6", "variableCollectionId": "VariableCollectionId:4:0", "resolvedType": "BOOLEAN",
            "valuesByMode": {"4:0": true}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:4:7": {"id": "VariableID:4:7", "name": "size/icon", "key": "t7", "variableCollectionId": "VariableCollectionId:4:0", "resolvedType": "FLOAT",
            "valuesByMode": {"4:0": 24}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}},
          "VariableID:4:8": {"id": "VariableID:4:8", "name": "space/gutter", "key": "t8", "variableCollectionId": "VariableCollectionId:4:0", "resolvedType": "FLOAT",
            "valuesByMode": {"4:0": {"type": "VARIABLE_ALIAS", "id": "VariableID:4:1"}}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["GAP"], "codeSyntax": {}},
          "VariableID:4:9": {"id": "VariableID:4:9", "name": "label/cta", "key": "t9", "variableCollectionId": "VariableCollectionId:4:0", "resolvedType": "STRING",
            "valuesByMode": {"4:0": "Buy now"}, "remote": false, "description": "", "hiddenFromPublishing": false, "scopes": ["TEXT_CONTENT"], "codeSyntax": {}},

          "VariableID:abc/9:1": {"id": "VariableID:abc/9:1", "name": "link/blue", "key": "r1", "variableCollectionId": "VariableCollectionId:abc/9:0", "resolvedType": "COLOR",
            "valuesByMode": {"9:0": {"r": 0, "g": 0.3, "b": 0.9, "a": 1}}, "remote": true, "description": "", "hiddenFromPublishing": false, "scopes": ["ALL_SCOPES"], "codeSyntax": {}}
        }
      }
    }
    """##

    static var bytes: [UInt8] { Array(answer.utf8) }
}
