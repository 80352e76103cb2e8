"""Issue types of texture content: what the decoded pixels of an image hold against what the
materials using it expect (``docs/textures.md`` gives each rule, its threshold and source)."""

from assetcheck.issues import IssueArea

declare = IssueArea("textures").declare

ISSUE_TYPES = [
    declare(
        "TEXTURE_DECODE_REFUSED",
        "warning",
        "Image {image} is {width:,} x {height:,} pixels, more than the {limit:,} pixels "
        "AssetCheck decodes, so its content was not checked. Engines must decode it whole "
        "too, and most refuse textures this large.",
        "Scale the image down to the largest texture side the target engine allows (8,192 at "
        "most, 2,048 on mobile) and export again.",
        title="Image too large to decode",
    ),
    declare(
        "TEXTURE_DECODE_FAILED",
        "warning",
        "Texture content was not checked: {reason}.",
        "Open the image in an image editor, save it again as PNG or JPEG, and export the "
        "model again.",
        title="Image that cannot be decoded",
    ),
    declare(
        "NORMAL_MAP_NOT_UNIT_LENGTH",
        "info",
        "Image {image}, the normal map of material {material}: {percent}% of its texels "
        "hold vectors whose length is off 1 by more than {tolerance:g}, so engines that do "
        "not normalise the sampled vector light them too dark or too bright.",
        "Bake the normal map again, or normalise it (Substance: Normal Normalize; GIMP: "
        "Filters > Generic > Normal Map with 'normalize'), and export the model again.",
        title="Normal map with vectors that are not unit length",
        count_phrase="({percent}% of texels)",
    ),
    declare(
        "NORMAL_MAP_NOT_TANGENT_SPACE",
        "warning",
        "Image {image}, the normal map of material {material}: {percent}% of its texels "
        "have a blue channel under 128 (a vector pointing into the surface). Materials "
        "(glTF's, and engines' reading FBX) take normal maps in tangent space, where blue "
        "stays at 128 and above: this looks like an object-space or world-space normal map, "
        "which shades the model wrongly.",
        "Bake the normal map in tangent space (the 'Tangent' or 'MikkTSpace' option of the "
        "baker) and export the model again.",
        title="Normal map not in tangent space",
        count_phrase="({percent}% of texels)",
    ),
    declare(
        "NORMAL_MAP_SRGB_ENCODED",
        "warning",
        "Image {image}, the normal map of material {material}: its vectors lean to "
        "x {mean_x:+.2f}, y {mean_y:+.2f} on average, where a tangent-space normal map "
        "averages near 0. This is what a normal map saved with sRGB encoding looks like "
        "(the flat colour 128, 128, 255 becomes 188, 188, 255), and it tilts the shading of "
        "the whole surface.",
        "Save the normal map as linear data (in the image editor: no colour management, or "
        "'Non-Color' in Blender), without converting it to sRGB, and export the model again.",
        title="Normal map saved in sRGB",
    ),
    declare(
        "NORMAL_MAP_COLOR_PROFILE",
        "info",
        "Image {image}, the normal map of material {material}, carries colour-space "
        "information ({hints}). glTF viewers ignore it, but tools that import the image on "
        "its own (engines' texture and FBX importers, image editors) may treat the normal "
        "map as an sRGB colour image.",
        "Save the normal map without a colour profile, sRGB chunk or gamma (in the image "
        "editor: do not embed a colour profile), and export the model again.",
        title="Normal map with an sRGB colour profile",
    ),
    declare(
        "BASE_COLOR_OUTSIDE_PBR_RANGE",
        "info",
        "Image {image}, the base colour of material {material}: {percent}% of its texels "
        "are {direction} than the physically based range the Khronos 3D Commerce asset "
        "guidelines give ({low} to {high} in sRGB), so the material looks {look} under "
        "realistic lighting.",
        "Keep base colours between {low} and {high} in sRGB: raise the darkest values and "
        "lower the brightest (a Levels adjustment in the image editor), and export again.",
        title="Base colour outside the physically based range",
        count_phrase="({percent}% of texels)",
    ),
    declare(
        "METALLIC_ROUGHNESS_CONSTANT",
        "info",
        "Image {image}, the metallic-roughness texture of material {material}: its "
        "{channel} channel holds {value} at every texel, which the material's {factor} "
        "can hold without a texture read.",
        "Set the material's {factor} to {scaled:.3g} and remove the channel from the "
        "texture (or the texture, if nothing else varies), then export again.",
        title="Metallic or roughness channel that never changes",
    ),
    declare(
        "METALLIC_ROUGHNESS_SWAPPED",
        "warning",
        "Image {image}, the metallic-roughness texture of material {material}, looks "
        "swapped: its green channel (roughness in glTF) is {green}% pure black or white, as "
        "metalness is, while its blue channel (metalness in glTF) is {blue}% so. glTF reads "
        "roughness from green and metalness from blue.",
        "Pack the texture as glTF expects: roughness in green, metalness in blue (occlusion, "
        "if any, in red), and export again.",
        title="Metallic and roughness channels swapped",
    ),
    declare(
        "TEXTURE_SINGLE_COLOR",
        "info",
        "Image {image} holds one colour at every texel (red {red}, green {green}, blue "
        "{blue}, alpha {alpha}): it takes {megabytes} MB of GPU memory for what a material "
        "factor holds for free.",
        "Remove the texture and set the colour in the material's factor instead (base "
        "colour, emissive, metallic and roughness factors), then export again.",
        title="Texture of one colour",
    ),
    declare(
        "TEXTURE_ALPHA_OPAQUE",
        "info",
        "Image {image} has an alpha channel that is fully opaque (255 at every texel): it "
        "adds a quarter to the image's size and makes some engines sort the material as "
        "transparent.",
        "Save the image without an alpha channel (RGB instead of RGBA), and export again.",
        title="Alpha channel that is fully opaque",
    ),
    declare(
        "TEXTURE_ALPHA_IGNORED",
        "warning",
        "Image {image}, the base colour of material {material}: {percent}% of its texels "
        "are transparent, but the material is opaque (glTF: alphaMode OPAQUE; FBX: no "
        "texture on an opacity property, no TransparencyFactor, full Opacity), so viewers "
        "draw them opaque and the transparency the artist painted is lost.",
        "Make the material transparent (glTF: alpha mode MASK for cut-outs such as leaves "
        "and fences, BLEND for glass and fades; FBX: connect the texture to the material's "
        "opacity or transparency too), or remove the alpha channel if the transparency is "
        "not meant, then export again.",
        title="Transparent texels on an opaque material",
        count_phrase="({percent}% of texels)",
    ),
    declare(
        "TEXTURE_DENSITY_EXCESSIVE",
        "info",
        "Image {image} ({width:,} x {height:,}), used by material {material}, puts "
        "{density:,} texels per metre on the surface it covers: {ratio:.3g} times the "
        "{needed:,} a screen of {screen:,} px shows when the whole model ({size} across) "
        "fills it. Its detail is never seen, and it takes GPU memory and download time.",
        "Scale the image down to about {suggested:,} px on its longer side (or give the "
        "surfaces that use it more UV space on a shared texture), and export again.",
        title="Texture far larger than the model needs",
        count_phrase="({ratio:.3g}x the density needed)",
    ),
]
