import { parseYaml, stringifyYaml } from "obsidian";
import { codecOverParser, type YamlCodec } from "../../shared/yaml-codec";

/**
 * Obsidian's own YAML (`parseYaml`/`stringifyYaml`, the parser its metadata cache reads properties with), so the
 * plugin bundles no YAML library. It has no syntax tree: where the text does not parse it sees no properties and
 * no tags, as Obsidian does.
 */
export const obsidianYamlCodec: YamlCodec = codecOverParser(
	(yaml) => parseYaml(yaml) as unknown,
	(value) => stringifyYaml(value),
);
