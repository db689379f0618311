// yaml is CommonJS: imported statically here (and this module dynamically) so that the bundle
// keeps its named exports; a dynamic import of the package itself would only see a default.
export {
  Document as YamlDocument,
  parse as parseYaml,
  stringify as stringifyYaml,
  visit as visitYaml,
} from 'yaml'
export type {
  CreateNodeOptions,
  DocumentOptions,
  ScalarTag,
  SchemaOptions,
  ToStringOptions,
} from 'yaml'
